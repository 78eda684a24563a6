import { Alert, Button, PasswordInput, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { Navigate, useNavigate, useSearch } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { AuthCard } from "./AuthCard.tsx";
import { errorText } from "./errors.ts";
import { PasswordStrengthBar, usePasswordStrength } from "./PasswordStrength.tsx";
import { useSwitchSession } from "./useSession.ts";

/** /password_reset?id&secret: a new password from the mailed link. */
export function PasswordResetPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const navigate = useNavigate();
  const switchSession = useSwitchSession();
  const search = useSearch({ strict: false }) as { id?: unknown; secret?: unknown };
  const [password, setPassword] = useState("");
  const [password2, setPassword2] = useState("");
  const [errors, setErrors] = useState<{ password?: string; password2?: string }>({});
  const strength = usePasswordStrength(password);
  const reset = useMutation(trpc.auth.resetPassword.mutationOptions());

  const id = search.id === undefined ? "" : String(search.id);
  const secret = search.secret === undefined ? "" : String(search.secret);
  if (!id || !secret) return <Navigate to="/login" replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const e: typeof errors = {};
    if (password === "") e.password = t("settings.new_required");
    else if (strength && !strength.strong) e.password = t("auth.pass_weak");
    if (password2 !== password) e.password2 = t("auth.pass_match");
    setErrors(e);
    if (Object.keys(e).length > 0) return;
    reset.mutate(
      { uid: Number(id), token: secret, password },
      {
        onSuccess: ({ token }) => {
          if (token) {
            switchSession(token);
            notifications.show({ message: t("account.reset_done"), color: "green" });
            void navigate({ to: "/" });
          } else {
            notifications.show({ message: t("account.reset_done_login"), color: "green" });
            void navigate({ to: "/login" });
          }
        },
      },
    );
  };

  return (
    <AuthCard title={t("account.reset_title")}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {reset.isError && (
            <Alert color="red" variant="light" role="alert" data-testid="reset-error">
              {errorText(reset.error)}
            </Alert>
          )}
          <div>
            <PasswordInput label={t("account.new_password")} autoComplete="new-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={errors.password} autoFocus />
            <PasswordStrengthBar strength={strength} show={password !== ""} />
          </div>
          <PasswordInput label={t("account.password2")} autoComplete="new-password" value={password2} onChange={(e) => setPassword2(e.currentTarget.value)} error={errors.password2} />
          <Button type="submit" size="md" loading={reset.isPending}>
            {t("account.reset_submit")}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
