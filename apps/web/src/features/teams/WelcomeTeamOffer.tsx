import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import { RedirectTo } from "./guards.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { useAppData } from "../../shell/useAppData.ts";
import "./texts.ts";

/**
 * The /welcome page's offers: with teams on and no team, create or join one; otherwise the
 * challenges and settings. A player who already has a team goes on to /campaign.
 */
export function WelcomeTeamOffer() {
  const { t } = useTranslation();
  const { config, me } = useAppData();
  if (!me || !config) return null;
  const teams = config.enable_teams !== false;
  if (teams && me.teamId != null) return <RedirectTo path="/campaign" />;
  if (teams) {
    return (
      <Stack gap="md" data-testid="welcome-team-offer">
        <Text c="dimmed">{t("teams.welcome_intro")}</Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Card withBorder padding="lg" radius="md">
            <Title order={2} size="h4">
              {t("teams.create_title")}
            </Title>
            <Text size="sm" c="dimmed" mt={4} mb="md">
              {t("teams.create_intro")}
            </Text>
            <Button component={Link} to="/team/create">
              {t("teams.create_title")}
            </Button>
          </Card>
          <Card withBorder padding="lg" radius="md">
            <Title order={2} size="h4">
              {t("teams.join_title")}
            </Title>
            <Text size="sm" c="dimmed" mt={4} mb="md">
              {t("teams.join_intro")}
            </Text>
            <Button component={Link} to="/team/join" variant="default">
              {t("teams.join_title")}
            </Button>
          </Card>
        </SimpleGrid>
      </Stack>
    );
  }
  return (
    <Stack gap="md" data-testid="welcome-team-offer">
      <Text c="dimmed">{t("teams.welcome_solo")}</Text>
      <Group>
        <Button component={Link} to="/campaign">
          {t("teams.challenges")}
        </Button>
        <Button component={Link} to="/settings" variant="default">
          {t("teams.settings")}
        </Button>
      </Group>
    </Stack>
  );
}

/** 'You can only submit flags if you are in a team.', for wherever a teamless player would try. */
export function TeamRequiredNotice() {
  const { t } = useTranslation();
  const { me } = useAppData();
  if (!me || me.teamId != null) return null;
  return (
    <Card withBorder padding="sm" radius="md" bg="var(--mantine-color-yellow-light)" role="note">
      <Group justify="space-between" gap="xs">
        <Text size="sm">{t("teams.team_required")}</Text>
        <Button component={Link} to="/welcome" size="xs" variant="light" color="yellow">
          {t("teams.join_title")}
        </Button>
      </Group>
    </Card>
  );
}
