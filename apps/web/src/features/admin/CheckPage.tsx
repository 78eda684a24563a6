import { Alert, Anchor, Badge, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useCategories } from "../challenges/useCategories.ts";
import { isFull } from "../challenges/types.ts";
import type { CategoryView, ChallengeView } from "../challenges/types.ts";
import { AdminPage, QueryState } from "./AdminPage.tsx";
import { editorLink } from "./ChallengeOverviewPage.tsx";
import "./texts.ts";

/** /admin/check: what is wrong with the event's pages and each challenge before the event starts, with links to fix it. */
export function CheckPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const check = useQuery(trpc.admin.selfCheck.queryOptions(undefined, { staleTime: 0 }));
  const pages = useQuery(trpc.pages.check.queryOptions(undefined, { staleTime: 0 }));
  const categories = useCategories();
  const byId = new Map<number, { challenge: ChallengeView; category: CategoryView }>();
  for (const category of categories.data ?? []) for (const challenge of category.challenges.filter(isFull)) byId.set(challenge.id, { challenge, category });

  return (
    <AdminPage title={t("admin.check")} intro={t("check.intro")}>
      <QueryState query={pages}>
        {(pageEntries) => (
          <QueryState query={check}>
            {(entries) =>
              entries.length === 0 && pageEntries.length === 0 ? (
                <Alert color="green" title={t("check.all_passed_title")} data-testid="check-passed">
                  {t("check.all_passed")}
                </Alert>
              ) : (
                <Stack gap="sm">
                  <Text size="sm" c="dimmed">
                    {t("check.count", { count: entries.length + pageEntries.length })}
                  </Text>
                  {pageEntries.length > 0 && (
                    <Stack gap="sm" component="section" aria-labelledby="check-pages">
                      <Title order={2} size="h4" id="check-pages">
                        {t("check.pages_title")}
                      </Title>
                      {pageEntries.map((entry) => (
                        <Card key={entry.issue} withBorder radius="md" padding="sm" data-testid="check-page-issue">
                          <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
                            <Text size="sm">{t(`check.pages.${entry.issue}`)}</Text>
                            <Anchor component={Link} to="/admin/cms" size="sm" style={{ whiteSpace: "nowrap" }} aria-label={`${t("check.write_page")}: ${entry.url}`}>
                              {t("check.write_page")}
                            </Anchor>
                          </Group>
                        </Card>
                      ))}
                    </Stack>
                  )}
                  <Title order={2} size="h4">
                    {t("check.challenges_title")}
                  </Title>
                  {entries.length === 0 && (
                    <Text size="sm" c="dimmed" data-testid="check-challenges-passed">
                      {t("check.challenges_passed")}
                    </Text>
                  )}
                  {entries.map((entry, i) => {
                    const found = byId.get(entry.challenge);
                    return (
                      <Card key={`${entry.challenge}-${entry.issue}-${i}`} withBorder radius="md" padding="sm" data-testid="check-issue">
                        <Group justify="space-between" wrap="wrap" gap="xs">
                          <Stack gap={2}>
                            <Group gap="xs">
                              <Text fw={600}>{found?.challenge.name ?? t("check.challenge_n", { id: entry.challenge })}</Text>
                              {found && (
                                <Text size="sm" c="dimmed">
                                  {found.category.name}
                                </Text>
                              )}
                            </Group>
                            <Text size="sm">{entry.extra || t(`check.issues.${entry.issue}`)}</Text>
                          </Stack>
                          <Group gap="xs">
                            <Badge variant="light" color="orange" style={{ textTransform: "none" }}>
                              {entry.issue}
                            </Badge>
                            {found && (
                              <Anchor component={Link} {...editorLink(found.category, found.challenge)} size="sm">
                                {t("check.fix")}
                              </Anchor>
                            )}
                          </Group>
                        </Group>
                      </Card>
                    );
                  })}
                </Stack>
              )
            }
          </QueryState>
        )}
      </QueryState>
    </AdminPage>
  );
}
