import { Alert, Anchor, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorCode, useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { AuthCard } from "./AuthCard.tsx";
import { errorText } from "./errors.ts";
import { RequestResetModal } from "./RequestResetModal.tsx";
import { useSwitchSession } from "./useSession.ts";

export function LoginPage() {
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

  const done = (token: string) => {
    switchSession(token);
    void navigate({ to: "/" });
  };
  const login = useMutation(trpc.auth.login.mutationOptions());
  const login2fa = useMutation(trpc.auth.login2fa.mutationOptions());

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

  return (
    <AuthCard title={t("account.login_title")} intro={t("account.login_intro", { event: config?.event_name ?? "Flagship CTF" })}>
      {config?.enable_login === false && (
        <Alert color="yellow" variant="light">
          {t("account.login_closed")}
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {failure && (
            <Alert color="red" variant="light" role="alert" data-testid="login-error">
              {failure}
            </Alert>
          )}
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
          {config?.enable_registration !== false && (
            <Text size="sm" ta="center" c="dimmed">
              {t("account.no_account")}{" "}
              <Anchor component={Link} to="/register">
                {t("account.register_link")}
              </Anchor>
            </Text>
          )}
        </Stack>
      </form>

      <Modal opened={tfaOpen} onClose={cancelTfa} title={t("account.tfa_prompt_title")} centered>
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
      </Modal>
      <RequestResetModal opened={resetOpen} onClose={() => setResetOpen(false)} />
    </AuthCard>
  );
}

