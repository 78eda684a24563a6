import { Button, Group, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useCallback, useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { errorText } from "./errors.ts";
import { useSwitchSession } from "./useSession.ts";

/** Starts impersonating a user (staff): the session switches to their token and data reloads. */
export function useImpersonate() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const navigate = useNavigate();
  const switchSession = useSwitchSession();
  const sudo = useMutation(trpc.auth.sudo.mutationOptions());
  const start = useCallback(
    (user: { id: number }) =>
      sudo.mutate(
        { id: user.id },
        {
          onSuccess: ({ token, username }) => {
            switchSession(token);
            notifications.show({ message: t("impersonation.started", { username }), color: "blue" });
            void navigate({ to: "/" });
          },
          onError: (error) => notifications.show({ message: `${t("impersonation.failed")} ${errorText(error)}`, color: "red" }),
        },
      ),
    [navigate, sudo, switchSession, t],
  );
  return { start, pending: sudo.isPending };
}

/** The 'Impersonate' action for a member, with a confirmation; staff only, never for oneself. */
export function ImpersonateButton({ user, size = "xs" }: { user: { id: number; username: string }; size?: "xs" | "sm" }) {
  const { t } = useTranslation();
  const { me } = useAppData();
  const { start, pending } = useImpersonate();
  const [opened, setOpened] = useState(false);
  if (!me?.staffPowers || me.id === user.id || me.impersonating) return null;
  return (
    <>
      <Button size={size} variant="light" color="orange" onClick={() => setOpened(true)}>
        {t("impersonation.start")}
      </Button>
      <Dialog opened={opened} onClose={() => setOpened(false)} title={t("impersonation.confirm_title", { username: user.username })} centered>
        <Stack>
          <Text size="sm">{t("impersonation.confirm_body")}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>
              {t("account.cancel")}
            </Button>
            <Button color="orange" loading={pending} onClick={() => start(user)} data-testid="confirm-impersonate">
              {t("impersonation.start")}
            </Button>
          </Group>
        </Stack>
      </Dialog>
    </>
  );
}
