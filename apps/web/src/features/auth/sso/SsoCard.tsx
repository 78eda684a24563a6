import { Alert, Button, Group, Loader, Stack, Text } from "@mantine/core";
import { errorMessage } from "@flagship/shared";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useEffect, useRef } from "react";
import { useTranslation } from "../../../lib/i18n.ts";
import { useTRPC } from "../../../lib/trpc.ts";
import { errorText } from "../errors.ts";
import { SettingsSection } from "../settings/SettingsSection.tsx";
import { SsoButton, useSsoInfo } from "./SsoButton.tsx";

/**
 * Settings → Single sign-on: the account's linked logins, a button to link one (through the
 * provider, back to /settings?oidc=<one-time code>, redeemed here) and Unlink, which the server
 * refuses for an account's only way in.
 */
export function SsoCard() {
  const sso = useSsoInfo();
  if (!sso.enabled) return null;
  return <LinkedLogins name={sso.name} />;
}

function LinkedLogins({ name }: { name: string }) {
  const { t, i18n } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const search: { oidc?: unknown; oidc_error?: unknown } = useSearch({ strict: false });
  const identities = useQuery(trpc.auth.identities.queryOptions());
  const link = useMutation(trpc.auth.oidcLink.mutationOptions());
  const unlink = useMutation(trpc.auth.unlinkIdentity.mutationOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.auth.identities.queryKey() });

  // Back from the provider: link the identity it vouched for to this account, once.
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current || (search.oidc === undefined && search.oidc_error === undefined)) return;
    handled.current = true;
    const clear = () => void navigate({ to: "/settings", search: {}, replace: true });
    if (search.oidc_error !== undefined) {
      notifications.show({ color: "red", message: errorMessage(String(search.oidc_error)) });
      clear();
      return;
    }
    link.mutate(
      { code: String(search.oidc) },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: t("sso.linked", { name }) });
          void refresh();
        },
        onError: (error) => notifications.show({ color: "red", message: errorText(error) }),
        onSettled: clear,
      },
    );
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const remove = (id: number) =>
    unlink.mutate(
      { id },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: t("sso.unlinked", { name }) });
          void refresh();
        },
        onError: (error) => notifications.show({ color: "red", message: errorText(error) }),
      },
    );

  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium" });
  const list = identities.data?.identities ?? [];
  return (
    <SettingsSection title={t("sso.card_title")} intro={t("sso.card_intro", { name })} testId="settings-sso">
      {identities.isPending || link.isPending ? (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text size="sm">{t("generic.loading")}</Text>
        </Group>
      ) : identities.isError ? (
        <Alert color="red" variant="light" role="alert">
          {errorText(identities.error)}
        </Alert>
      ) : (
        <Stack gap="sm">
          {list.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t("sso.none_linked")}
            </Text>
          ) : (
            list.map((identity) => (
              <Group key={identity.id} justify="space-between" wrap="wrap" gap="xs" data-testid="sso-identity">
                <Stack gap={0}>
                  <Text fw={500}>{t("sso.linked_as", { email: identity.email || name })}</Text>
                  <Text size="sm" c="dimmed">
                    {new URL(identity.issuer).host} · {t("sso.linked_on", { date: dateFormat.format(new Date(identity.linked_at)) })}
                  </Text>
                </Stack>
                <Button variant="default" color="red" onClick={() => remove(identity.id)} loading={unlink.isPending} aria-label={t("sso.unlink_label", { email: identity.email || name })}>
                  {t("sso.unlink")}
                </Button>
              </Group>
            ))
          )}
          {list.length > 0 && identities.data?.hasPassword === false && (
            <Text size="sm" c="dimmed">
              {t("sso.no_password_hint")}
            </Text>
          )}
          {list.length === 0 && (
            <Group>
              <SsoButton name={name} purpose="link" />
            </Group>
          )}
        </Stack>
      )}
    </SettingsSection>
  );
}
