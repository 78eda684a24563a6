import { Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { Link, Navigate } from "@tanstack/react-router";
import type { ComponentType } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useAppData } from "../../shell/useAppData.ts";

/**
 * The offers under the welcome heading. The teams feature replaces the default with its own
 * (create or join a team) through registerWelcomeOffer, from its own files.
 */
let Offer: ComponentType = DefaultWelcomeOffer;
export function registerWelcomeOffer(component: ComponentType): void {
  Offer = component;
}

/** With teams on and no team: create or join one. Otherwise: the challenges and the settings. */
function DefaultWelcomeOffer() {
  const { t } = useTranslation();
  const { config, me } = useAppData();
  const needsTeam = config?.enable_teams !== false && me?.teamId == null;
  return (
    <Group data-testid="welcome-offer">
      {needsTeam ? (
        <>
          <Button component={Link} to="/team/create">
            Create a team
          </Button>
          <Button component={Link} to="/team/join" variant="default">
            Join a team
          </Button>
        </>
      ) : (
        <>
          <Button component={Link} to="/campaign">
            {t("account.challenges")}
          </Button>
          <Button component={Link} to="/settings" variant="default">
            {t("account.settings")}
          </Button>
        </>
      )}
    </Group>
  );
}

/** /welcome: where a new account lands. A player who already has a team goes on to /campaign. */
export function WelcomePage() {
  const { t } = useTranslation();
  const { config, me } = useAppData();
  if (!me) return null;
  if (config?.enable_teams !== false && me.teamId != null) return <Navigate to="/campaign" replace />;
  return (
    <Stack maw={760} mx="auto" py="xl">
      <Paper withBorder radius="lg" p={{ base: "lg", sm: 40 }}>
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1}>{t("account.welcome_title", { username: me.username })}</Title>
            <Text c="dimmed">{t("account.welcome_intro")}</Text>
          </Stack>
          <Offer />
        </Stack>
      </Paper>
    </Stack>
  );
}
