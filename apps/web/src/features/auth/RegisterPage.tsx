import { Alert, Anchor, Button, Checkbox, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { emailAllowed, eventGates, isEmailShaped, LIMITS } from "@flagship/shared";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { Trans, useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { AuthCard } from "./AuthCard.tsx";
import { errorText, fieldErrors } from "./errors.ts";
import { PasswordStrengthBar, usePasswordStrength } from "./PasswordStrength.tsx";
import { SsoButton, useSsoInfo } from "./sso/SsoButton.tsx";
import { useSwitchSession } from "./useSession.ts";

type Field = "username" | "email" | "password" | "password2" | "invite" | "accept";

export function RegisterPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const navigate = useNavigate();
  const switchSession = useSwitchSession();
  const { config } = useAppData();
  const [form, setForm] = useState({ username: "", email: "", password: "", password2: "", invite: "", accept: false });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const strength = usePasswordStrength(form.password, [form.username, form.email, config?.event_name ?? ""]);
  const register = useMutation(trpc.auth.register.mutationOptions());
  // Sign-up asks to accept only the terms and privacy pages staff have written.
  const pages = useQuery(trpc.pages.list.queryOptions(undefined, { staleTime: 60_000 }));
  const terms = termsToAccept(pages.data ?? []);
  const sso = useSsoInfo();
  const set = (field: keyof typeof form) => (value: string | boolean) => {
    setForm((f) => ({ ...f, [field]: value }));
    // An edited field's old complaint no longer applies.
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  const open = config ? config.enable_registration !== false && eventGates(config as Parameters<typeof eventGates>[0], Date.now() / 1000).registrationOpen : true;
  const inviteRequired = config?.invite_required === true;

  const validate = (): Partial<Record<Field, string>> => {
    const e: Partial<Record<Field, string>> = {};
    if (form.username.trim() === "") e.username = t("account.no_username");
    if (form.email.trim() === "") e.email = t("auth.no_email");
    else if (!isEmailShaped(form.email.trim()) || (config && !emailAllowed(form.email.trim(), { email_domain: config.email_domain ?? "", email_regex: config.email_regex ?? "" }))) {
      e.email = t("auth.inv_email");
    }
    if (form.password === "") e.password = t("account.no_password");
    else if (strength && !strength.strong) e.password = strength.feedback ? `${t("auth.pass_weak")}: ${strength.feedback}` : t("auth.pass_weak");
    if (form.password2 !== form.password) e.password2 = t("auth.pass_match");
    if (inviteRequired && form.invite.trim() === "") e.invite = t("auth.no_invite");
    if (terms && !form.accept) e.accept = terms === "both" ? t("auth.no_accept") : t(`account.no_accept_${terms}`);
    return e;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const e = validate();
    setErrors(e);
    if (Object.keys(e).length > 0) return;
    register.mutate(
      {
        username: form.username.trim(),
        email: form.email.trim(),
        password: form.password,
        password2: form.password2,
        ...(inviteRequired && { invite: form.invite.trim() }),
        accept: terms !== null && form.accept,
      },
      {
        onSuccess: (result) => {
          if (result.token) {
            switchSession(result.token);
            void navigate({ to: "/welcome" });
          } else if (result.verificationRequired) {
            void navigate({ to: "/register/email" });
          } else {
            // The account exists but login is not open yet (switched off, or the event has not started).
            notifications.show({ message: t("account.registered_login_later"), color: "green", autoClose: 10_000 });
            void navigate({ to: "/login" });
          }
        },
        onError: (error) => {
          const fields = fieldErrors(error);
          const known = Object.keys(fields).filter((f): f is Field => ["username", "email", "password", "password2", "invite", "accept"].includes(f));
          // Terms written while this form was open: the checkbox is not on screen yet to hold the message.
          if (known.length > 0 && !(known.includes("accept") && !terms)) setErrors(Object.fromEntries(known.map((f) => [f, fields[f]])));
          else setFailure(errorText(error));
          if (known.includes("accept")) void pages.refetch();
        },
      },
    );
  };

  if (!open) {
    return (
      <AuthCard title={t("account.register_title")}>
        <Alert color="yellow" variant="light" data-testid="registration-closed">
          {t("account.registration_closed")}
        </Alert>
      </AuthCard>
    );
  }

  // registration_provider oidc: accounts come from the organisation's provider, on first sign-in.
  if (config?.registration_provider === "oidc" && sso.enabled) {
    return (
      <AuthCard title={t("account.register_title")} intro={t("sso.signup_intro", { event: config.event_name ?? "Flagship CTF", name: sso.name })}>
        <SsoButton name={sso.name} purpose="signup" />
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t("account.register_title")} intro={t("account.register_intro", { event: config?.event_name ?? "Flagship CTF" })} width={480}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {failure && (
            <Alert color="red" variant="light" role="alert" data-testid="register-error">
              {failure}
            </Alert>
          )}
          <TextInput
            label={t("account.username")}
            autoComplete="username"
            value={form.username}
            maxLength={LIMITS.username}
            onChange={(e) => set("username")(e.currentTarget.value)}
            error={errors.username}
            autoFocus
          />
          <TextInput label={t("account.email")} type="email" autoComplete="email" value={form.email} onChange={(e) => set("email")(e.currentTarget.value)} error={errors.email} />
          <div>
            <PasswordInput
              label={t("account.password")}
              autoComplete="new-password"
              value={form.password}
              onChange={(e) => set("password")(e.currentTarget.value)}
              error={errors.password}
            />
            <PasswordStrengthBar strength={strength} show={form.password !== ""} />
          </div>
          <PasswordInput
            label={t("account.password2")}
            autoComplete="new-password"
            value={form.password2}
            onChange={(e) => set("password2")(e.currentTarget.value)}
            error={errors.password2}
          />
          {inviteRequired && (
            <TextInput label={t("account.invite")} value={form.invite} onChange={(e) => set("invite")(e.currentTarget.value)} error={errors.invite} />
          )}
          {terms && (
            <Checkbox
              checked={form.accept}
              onChange={(e) => set("accept")(e.currentTarget.checked)}
              error={errors.accept}
              data-testid="accept-terms"
              label={
                <Trans
                  i18nKey={`account.accept_${terms}`}
                  components={{
                    terms: <Anchor component={Link} to="/terms" target="_blank" inherit style={{ textDecoration: "underline" }} />,
                    privacy: <Anchor component={Link} to="/privacy" target="_blank" inherit style={{ textDecoration: "underline" }} />,
                  }}
                />
              }
            />
          )}
          <Button type="submit" loading={register.isPending} disabled={pages.isPending} fullWidth size="md">
            {t("account.register")}
          </Button>
          <Text size="sm" ta="center" c="dimmed">
            {t("account.have_account")}{" "}
            <Anchor component={Link} to="/login">
              {t("account.login")}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}

/** Which of the terms and privacy pages exist, as the name of the checkbox's text; null for neither. */
function termsToAccept(pages: { url: string }[]): "terms" | "privacy" | "both" | null {
  const written = new Set(pages.map((p) => p.url.replace(/^\/+|\/+$/g, "")));
  const terms = written.has("terms");
  const privacy = written.has("privacy");
  return terms && privacy ? "both" : terms ? "terms" : privacy ? "privacy" : null;
}
