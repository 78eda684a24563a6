import { Button, Group, Modal, Paper, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { errorText } from "./errors.ts";
import { useSwitchSession } from "./useSession.ts";

/** Ends an impersonation: the server hands back the staff member's own session. */
export function useEndImpersonation() {
  const { t } = useTranslation();
  const client = useTRPCClient();
  const switchSession = useSwitchSession();
  return useCallback(async () => {
    try {
      const { token } = await client.auth.desudo.mutate();
      switchSession(token);
      notifications.show({ message: t("impersonation.ended"), color: "green" });
    } catch {
      switchSession(null);
      notifications.show({ message: t("impersonation.end_failed"), color: "red" });
    }
  }, [client, switchSession, t]);
}

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
      <Modal opened={opened} onClose={() => setOpened(false)} title={t("impersonation.confirm_title", { username: user.username })} centered>
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
      </Modal>
    </>
  );
}

/** Banners above every page: the impersonation in progress, and staff who must enrol in 2FA. */
export function AccountBanners() {
  const { t } = useTranslation();
  const { me } = useAppData();
  const endImpersonation = useEndImpersonation();
  if (!me) return null;
  return (
    <>
      {me.impersonating && (
        <Paper role="status" data-testid="impersonation-banner" radius="md" p="sm" mb="md" bg="var(--mantine-color-orange-light)" withBorder>
          <Group justify="space-between" gap="sm">
            <Text size="sm" fw={500}>
              {t("impersonation.banner", { username: me.username })}
            </Text>
            <Button size="xs" color="orange" onClick={() => void endImpersonation()}>
              {t("impersonation.end")}
            </Button>
          </Group>
        </Paper>
      )}
      {me.mustEnrol2fa && (
        <Paper role="status" data-testid="force-2fa-banner" radius="md" p="sm" mb="md" bg="var(--mantine-color-yellow-light)" withBorder>
          <Group justify="space-between" gap="sm">
            <Text size="sm">{t("force2fa.banner")}</Text>
            <Button size="xs" variant="white" color="dark" component={Link} to="/settings/2fa">
              {t("force2fa.action")}
            </Button>
          </Group>
        </Paper>
      )}
    </>
  );
}
