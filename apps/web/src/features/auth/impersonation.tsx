import { Button, Group, Paper, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { Link } from "@tanstack/react-router";
import { useCallback } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPCClient } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
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
