import { Alert, Anchor, Button, Collapse, Divider, Group, Loader, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { errorMessage } from "@flagship/shared";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery } from "@tanstack/react-query";
import { IconLock } from "@tabler/icons-react";
import { Link, useNavigate, useRouter, useSearch } from "@tanstack/react-router";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { errorCode, useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { AuthCard } from "./AuthCard.tsx";
import { errorText } from "./errors.ts";
import { type LoginReason, loginReason, safeNext } from "./login-reason.ts";
import { RequestResetModal } from "./RequestResetModal.tsx";
import { SsoButton, useSsoInfo } from "./sso/SsoButton.tsx";
import { useSwitchSession } from "./useSession.ts";

/**
 * /login. With `primary="oidc"` (login_provider oidc) the provider's button leads and the password
 * form waits behind "Use a password instead" (for staff and accounts without a link); otherwise
 * the password form leads and, when single sign-on is set up, the provider's button follows it.
 * The provider's callback lands here with `?oidc=<one-time code>` (redeemed for a session token)
 * or `?oidc_error=<code>`.
 */
export function LoginPage({ primary = "password" }: { primary?: "password" | "oidc" }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const navigate = useNavigate();
  const switchSession = useSwitchSession();
  const { config } = useAppData();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [tfaOpen, setTfaOpen] = useState(false);
  const [tfa, setTfa] = useState("");
  const [tfaError, setTfaError] = useState<string | null>(null);
  const [resetOpen, setResetOpen] = useState(false);
  const sso = useSsoInfo();
  const search: { oidc?: unknown; oidc_error?: unknown; next?: unknown } = useSearch({ strict: false });
  const router = useRouter();
  const next = safeNext(search.next);
  const ssoLeads = primary === "oidc" && sso.enabled;
  const [passwordOpen, setPasswordOpen] = useState(false);

  // Back to the page the visitor was sent here from, else home.
  const done = (token: string) => {
    switchSession(token);
    if (next) router.history.replace(next);
    else void navigate({ to: "/" });
  };
  const login = useMutation(trpc.auth.login.mutationOptions());
  const login2fa = useMutation(trpc.auth.login2fa.mutationOptions());
  const ssoLogin = useMutation(trpc.auth.oidcLogin.mutationOptions());

  // Back from the provider: redeem the one-time code once, or show why it did not work.
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current) return;
    handled.current = true;
    if (search.oidc_error !== undefined) setFailure(errorMessage(String(search.oidc_error)));
    if (search.oidc === undefined) return;
    ssoLogin.mutate(
      { code: String(search.oidc) },
      {
        onSuccess: ({ token }) => done(token),
        onError: (error) => {
          setFailure(errorText(error));
          void navigate({ to: "/login", search: {}, replace: true });
        },
      },
    );
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      ...(username.trim() === "" && { username: t("account.no_username") }),
      ...(password === "" && { password: t("account.no_password") }),
    };
    setErrors(next);
    setFailure(null);
    if (Object.keys(next).length > 0) return;
    login.mutate(
      { username: username.trim(), password },
      {
        onSuccess: ({ token }) => done(token),
        onError: (error) => {
          if (errorCode(error) === "2fa_required") {
            setTfa("");
            setTfaError(null);
            setTfaOpen(true);
          } else setFailure(errorText(error));
        },
      },
    );
  };

  const submitTfa = (code = tfa) => {
    if (code.trim().length < 6) return;
    setTfaError(null);
    login2fa.mutate(
      { username: username.trim(), password, tfa: code.trim() },
      { onSuccess: ({ token }) => done(token), onError: (error) => setTfaError(errorText(error)) },
    );
  };

  const cancelTfa = () => {
    setTfaOpen(false);
    notifications.show({ message: t("account.tfa_cancelled"), color: "gray" });
  };

  const passwordForm = (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t("account.username_or_email")}
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.currentTarget.value)}
          error={errors.username}
          autoFocus
        />
        <PasswordInput
          label={t("account.password")}
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={errors.password}
        />
        <Group justify="flex-end" mt={-8}>
          <Anchor component="button" type="button" size="sm" onClick={() => setResetOpen(true)}>
            {t("account.forgot")}
          </Anchor>
        </Group>
        <Button type="submit" loading={login.isPending} fullWidth size="md">
          {t("account.login")}
        </Button>
      </Stack>
    </form>
  );
  const registerLink = config?.enable_registration !== false && (
    <Text size="sm" ta="center" c="dimmed">
      {t("account.no_account")}{" "}
      <Anchor component={Link} to="/register">
        {t("account.register_link")}
      </Anchor>
    </Text>
  );

  return (
    <AuthCard title={t("account.login_title")} intro={t("account.login_intro", { event: config?.event_name ?? "Flagship CTF" })}>
      {config?.enable_login === false && (
        <Alert color="yellow" variant="light">
          {t("account.login_closed")}
        </Alert>
      )}
      {next && !failure && <LoginReasonNote reason={loginReason(next)} />}
      {failure && (
        <Alert color="red" variant="light" role="alert" data-testid="login-error">
          {failure}
        </Alert>
      )}
      {ssoLogin.isPending || (search.oidc !== undefined && !failure) ? (
        <Group gap="sm" justify="center" py="md" role="status">
          <Loader size="sm" />
          <Text>{t("sso.signing_in")}</Text>
        </Group>
      ) : primary === "oidc" && sso.loading ? (
        <Group justify="center" py="md" role="status" aria-label={t("generic.loading")}>
          <Loader size="sm" />
        </Group>
      ) : ssoLeads ? (
        <Stack gap="md">
          <SsoButton name={sso.name} />
          <Anchor component="button" type="button" size="sm" ta="center" onClick={() => setPasswordOpen((open) => !open)} aria-expanded={passwordOpen} aria-controls="password-login">
            {passwordOpen ? t("sso.hide_password") : t("sso.use_password")}
          </Anchor>
          <Collapse expanded={passwordOpen} id="password-login">
            {passwordOpen && passwordForm}
          </Collapse>
          {registerLink}
        </Stack>
      ) : (
        <Stack gap="md">
          {passwordForm}
          {sso.enabled && (
            <>
              <Divider label={t("sso.or")} labelPosition="center" />
              <SsoButton name={sso.name} variant="default" />
            </>
          )}
          {registerLink}
        </Stack>
      )}

      <Dialog opened={tfaOpen} onClose={cancelTfa} title={t("account.tfa_prompt_title")} centered>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submitTfa();
          }}
        >
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              {t("account.tfa_prompt_body")}
            </Text>
            <TextInput
              label={t("account.tfa_code")}
              value={tfa}
              onChange={(e) => setTfa(e.currentTarget.value.replace(/\s+/g, "").slice(0, 8))}
              autoComplete="one-time-code"
              inputMode="text"
              maxLength={8}
              error={tfaError}
              data-autofocus
              styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)", letterSpacing: "0.2em", fontSize: 20 } }}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={cancelTfa}>
                {t("account.cancel")}
              </Button>
              <Button type="submit" loading={login2fa.isPending} disabled={tfa.length < 6}>
                {t("account.tfa_submit")}
              </Button>
            </Group>
          </Stack>
        </form>
      </Dialog>
      <RequestResetModal opened={resetOpen} onClose={() => setResetOpen(false)} />
    </AuthCard>
  );
}


/** The login screen of the `oidc` login provider: the provider's button leads. */
export function OidcLoginPage() {
  return <LoginPage primary="oidc" />;
}

/** Why the visitor is asked to log in: the profile or team they opened, named when it can be. */
function LoginReasonNote({ reason }: { reason: LoginReason }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const ref = reason.kind === "page" ? null : reason.ref;
  const name = ref !== null && typeof ref === "object" ? ref.name : "";
  const id = typeof ref === "number" ? ref : 0;
  // Profiles and teams are public to the API (the pages need a login), so are their names: the
  // note names what the server knows, never text taken from the address as it stands.
  const options = { retry: false, staleTime: 60_000 } as const;
  const member = useQuery(trpc.users.get.queryOptions({ id }, { ...options, enabled: reason.kind === "profile" && id > 0 }));
  const memberByName = useQuery(trpc.users.byName.queryOptions({ username: name }, { ...options, enabled: reason.kind === "profile" && name !== "" }));
  const team = useQuery(trpc.teams.get.queryOptions({ id }, { ...options, enabled: reason.kind === "team" && id > 0 }));
  const teamByName = useQuery(trpc.teams.byName.queryOptions({ name }, { ...options, enabled: reason.kind === "team" && name !== "" }));
  let text: string;
  if (reason.kind === "page") text = t("login_reason.page");
  else if (reason.kind === "profile") {
    const shown = (name ? memberByName : member).data?.username;
    text = ref === "me" ? t("login_reason.own_profile") : shown ? t("login_reason.profile", { name: shown }) : t("login_reason.profile_unnamed");
  } else {
    const shown = (name ? teamByName : team).data?.name;
    text = ref === "me" ? t("login_reason.own_team") : shown ? t("login_reason.team", { name: shown }) : t("login_reason.team_unnamed");
  }
  return (
    <Alert color="blue" variant="light" icon={<IconLock size={18} aria-hidden />} data-testid="login-reason">
      {text}
    </Alert>
  );
}
