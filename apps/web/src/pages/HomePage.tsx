import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { Link, Navigate } from "@tanstack/react-router";
import { useTranslation } from "../lib/i18n.ts";
import { useAppData } from "../shell/useAppData.ts";

const TOPICS = ["osint", "crypto", "web", "pwn", "linux"] as const;

/** The landing page for visitors; signed-in players go straight to the challenges. */
export function HomePage() {
  const { t } = useTranslation();
  const { config, me } = useAppData();
  if (me) return <Navigate to="/campaign" replace />;
  return (
    <Stack maw={960} mx="auto" gap="xl" py="lg">
      <Stack gap="sm">
        <Badge variant="light" size="lg" w="fit-content">
          {t("home.tagline")}
        </Badge>
        <Title order={1}>{config?.event_name ?? "Flagship CTF"}</Title>
        <Text size="lg" c="dimmed" maw={680}>
          {t("home.intro")}
        </Text>
        <Group>
          <Button component={Link} to={config?.enable_registration === false ? "/login" : "/register"} size="md">
            {t("home.get_started")}
          </Button>
          <Button component={Link} to="/leaderboard" variant="default" size="md">
            {t("nav.leaderboard")}
          </Button>
        </Group>
      </Stack>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
        {TOPICS.map((topic) => (
          <Card key={topic} withBorder padding="lg">
            <Text fw={600}>{t(`home.topics.${topic}`)}</Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
