import { Alert, Button, Stack, Text, TextInput, ThemeIcon } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { AuthCard } from "./AuthCard.tsx";
import { errorText } from "./errors.ts";

/** /register/email: the thank-you page after registering when the address must be verified. */
export function RegisterEmailPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const resend = useMutation(trpc.auth.resendEmail.mutationOptions());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim() === "") return setError(t("auth.no_email"));
    setError(null);
    resend.mutate({ email: email.trim() }, { onError: (e) => setError(errorText(e)) });
  };
  return (
    <AuthCard
      title={t("account.check_email_title")}
      intro={
        <Text component="span" size="sm">
          {t("account.check_email_body")}
        </Text>
      }
    >
      <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
        <span style={{ fontSize: 28 }}>✉</span>
      </ThemeIcon>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text fw={600} size="sm">
            {t("account.resend_title")}
          </Text>
          {resend.isSuccess && (
            <Alert color="green" variant="light">
              {t("account.resent")}
            </Alert>
          )}
          <TextInput label={t("account.email")} type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={error} />
          <Button type="submit" variant="light" loading={resend.isPending}>
            {t("account.resend")}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
