import { markdownSummary } from "@flagship/shared";
import { Badge, Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import "@mantine/core/styles/Progress.css";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "../../lib/i18n.ts";
import { useStaffView } from "../../shell/viewAsPlayer.ts";
import { TeamWarning, WithCategories } from "./pages.tsx";
import { categoryProgress } from "./player-view.ts";
import type { CategoryView } from "./types.ts";
import "../authoring/texts.ts";

// The category cards are a page of their own: their grid, progress bars and markdown summaries stay
// out of the category and challenge pages' first load.

type ProgressState = "finished" | "none" | "some";

function progressOf(category: CategoryView) {
  const progress = categoryProgress(category);
  const state: ProgressState = progress.total > 0 && progress.solved === progress.total ? "finished" : progress.solved === 0 ? "none" : "some";
  return { ...progress, state };
}

/** /campaign: the categories as cards, each with how much of it the team has solved. */
export function CampaignPage() {
  const { t } = useTranslation();
  const staffView = useStaffView();
  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Title order={1}>{t("challenges.campaign_title")}</Title>
          <Text c="dimmed">{t("challenges.campaign_intro")}</Text>
        </Stack>
        {staffView && (
          <Button component={Link} to="/campaign/new" variant="light">
            {t("editor.new_category")}
          </Button>
        )}
      </Group>
      <TeamWarning />
      <WithCategories>
        {(categories) =>
          categories.length === 0 ? (
            <Text c="dimmed" ta="center" py="xl">
              {t("challenges.no_categories")}
            </Text>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
              {categories.map((category) => {
                const progress = progressOf(category);
                const finished = progress.state === "finished";
                return (
                  <Card
                    key={category.id}
                    withBorder
                    padding="lg"
                    component={Link}
                    to={`/campaign/${category.slug}`}
                    className="challenge-card"
                    data-solved={finished}
                    data-state={progress.state}
                    data-testid={`category-${category.id}`}
                  >
                    <Stack gap="sm" h="100%">
                      <Group justify="space-between" wrap="nowrap" align="flex-start">
                        <Title order={2} size="h4">
                          {category.name}
                        </Title>
                        <Badge color={finished ? "green" : progress.state === "some" ? "flagship" : "gray"} variant={finished ? "filled" : "light"} style={{ flexShrink: 0 }} data-testid="category-state">
                          {t(`challenges.state_${progress.state}`)}
                        </Badge>
                      </Group>
                      {category.description && (
                        <Text size="sm" c="dimmed" lineClamp={3}>
                          {markdownSummary(category.description)}
                        </Text>
                      )}
                      <Stack gap={6} mt="auto">
                        <Group justify="space-between" gap="xs" wrap="nowrap">
                          <Text size="sm" c={finished ? "green" : undefined} fw={500} data-testid="solved-count">
                            {t("challenges.solved_count", { solved: progress.solved, total: progress.total })}
                          </Text>
                          <Text size="sm" fw={600} ff="monospace" data-testid="category-points">
                            {t("challenges.points_of", { earned: progress.earned, available: progress.available })}
                          </Text>
                        </Group>
                        <Progress
                          value={progress.total === 0 ? 0 : (100 * progress.solved) / progress.total}
                          color={finished ? "green" : "flagship"}
                          size="sm"
                          radius="xl"
                          aria-label={t("challenges.solved_count", { solved: progress.solved, total: progress.total })}
                          data-testid="category-progress"
                        />
                      </Stack>
                    </Stack>
                  </Card>
                );
              })}
            </SimpleGrid>
          )
        }
      </WithCategories>
    </Stack>
  );
}
