import { Alert, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { errorCode, useTRPC } from "../../lib/trpc.ts";
import { errorText } from "./errors.ts";

/** 'Forgot password?': asks for the account's email and mails a reset link. */
export function RequestResetModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const request = useMutation(trpc.auth.requestPasswordReset.mutationOptions());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim() === "") return setError(t("auth.no_email"));
    setError(null);
    request.mutate(
      { email: email.trim() },
      { onError: (e) => setError(errorCode(e) === "not_found" ? t("account.reset_not_found") : errorText(e)) },
    );
  };
  const close = () => {
    request.reset();
    setError(null);
    onClose();
  };

  return (
    <Dialog opened={opened} onClose={close} title={t("account.reset_request_title")} centered>
      {request.isSuccess ? (
        <Stack>
          <Alert color="green" variant="light" data-testid="reset-sent">
            {t("account.reset_request_sent")}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={close}>{t("account.back_to_login")}</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm" c="dimmed">
              {t("account.reset_request_intro")}
            </Text>
            <TextInput label={t("account.email")} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={error} data-autofocus />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t("account.cancel")}
              </Button>
              <Button type="submit" loading={request.isPending}>
                {t("account.reset_request_send")}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Dialog>
  );
}
