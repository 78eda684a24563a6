import { useAppData } from "../../../shell/useAppData.ts";
import { Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "../../../lib/i18n.ts";
import { localPreference } from "../localPreferences.ts";
import { DangerCard, NotificationsCard, PasswordCard, ProfileCard, TwoFactorCard, UsernameCard } from "./AccountCards.tsx";
import { registerSettingsCard, SETTINGS_ORDER, settingsCards } from "./registry.ts";
import { SsoCard } from "../sso/SsoCard.tsx";
import { PersonalTokensCard } from "./PersonalTokensCard.tsx";

registerSettingsCard({ id: "profile", order: SETTINGS_ORDER.profile, Component: ProfileCard });
registerSettingsCard({ id: "notifications", order: SETTINGS_ORDER.notifications, Component: NotificationsCard });
registerSettingsCard({ id: "2fa", order: SETTINGS_ORDER.twoFactor, Component: TwoFactorCard });
registerSettingsCard({ id: "username", order: SETTINGS_ORDER.username, Component: UsernameCard });
registerSettingsCard({ id: "password", order: SETTINGS_ORDER.password, Component: PasswordCard });
registerSettingsCard({ id: "sso", order: SETTINGS_ORDER.sso, Component: SsoCard });
// Staff only (the card shows nothing to players), after the sign-in cards.
registerSettingsCard({ id: "tokens", order: SETTINGS_ORDER.sso + 5, Component: PersonalTokensCard });
registerSettingsCard({
  id: "danger",
  order: SETTINGS_ORDER.danger,
  // The accDeletion local setting can hide account deletion (on by default: the server supports it).
  Component: () => (localPreference("accDeletion", true) ? <DangerCard /> : null),
});

/** /settings: the registered cards in order. */
export function SettingsPage() {
  const { t } = useTranslation();
  // Cards keep form state; a different signed-in user (impersonation starting or ending) starts them afresh.
  const { me } = useAppData();
  return (
    <Stack maw={820} mx="auto" gap="lg" py="md">
      <Stack gap={4}>
        <Title order={1}>{t("settings.title")}</Title>
        <Text c="dimmed">{t("settings.intro")}</Text>
      </Stack>
      {settingsCards().map(({ id, Component }) => (
        <Component key={`${id}:${me?.id ?? "anonymous"}`} />
      ))}
    </Stack>
  );
}
