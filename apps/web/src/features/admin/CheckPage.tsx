import { Alert, Anchor, Badge, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useCategories } from "../challenges/useCategories.ts";
import { isFull } from "../challenges/types.ts";
import type { CategoryView, ChallengeView } from "../challenges/types.ts";
import { AdminPage, QueryState } from "./AdminPage.tsx";
import { editorLink } from "./ChallengeOverviewPage.tsx";
import "./texts.ts";

/** Where each problem of the event is fixed, and the link's text key. */
const EVENT_FIXES = {
  no_categories: { to: "/campaign/new", label: "check.fix_event.new_category" },
  no_challenges: { to: "/admin/allChallenges", label: "check.fix_event.challenges" },
  start_past: { to: "/admin/config", label: "check.fix_event.schedule" },
  end_before_start: { to: "/admin/config", label: "check.fix_event.schedule" },
  jobs_without_worker: { to: "/admin/jobs", label: "check.fix_event.jobs" },
  accent_contrast: { to: "/admin/theme", label: "check.fix_event.theme" },
} as const;

/** A part of the check: a heading naming what was checked, the problems found under it. */
function CheckSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** One problem, said in a sentence, with the link to where it is fixed (named `fixLabel` for screen readers when the text alone would be ambiguous). */
function FixCard({ text, to, fix, fixLabel, testId }: { text: string; to: string; fix: string; fixLabel?: string; testId: string }) {
  return (
    <Card withBorder radius="md" padding="sm" data-testid={testId}>
      <Group justify="space-between" wrap="wrap" gap="sm" align="flex-start">
        <Text size="sm" style={{ flex: "1 1 18rem" }}>
          {text}
        </Text>
        <Anchor component={Link} to={to} size="sm" style={{ whiteSpace: "nowrap" }} aria-label={fixLabel}>
          {fix}
        </Anchor>
      </Group>
    </Card>
  );
}

/** /admin/check: what is wrong with the event's pages and each challenge before the event starts, with links to fix it. */
export function CheckPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const check = useQuery(trpc.admin.selfCheck.queryOptions(undefined, { staleTime: 0 }));
  const pages = useQuery(trpc.pages.check.queryOptions(undefined, { staleTime: 0 }));
  const event = useQuery(trpc.admin.eventCheck.queryOptions(undefined, { staleTime: 0 }));
  const categories = useCategories();
  const byId = new Map<number, { challenge: ChallengeView; category: CategoryView }>();
  for (const category of categories.data ?? []) for (const challenge of category.challenges.filter(isFull)) byId.set(challenge.id, { challenge, category });

  return (
    <AdminPage title={t("admin.check")} intro={t("check.intro")}>
      <QueryState query={event}>
        {(eventEntries) => (
          <QueryState query={pages}>
            {(pageEntries) => (
              <QueryState query={check}>
                {(entries) =>
                  entries.length === 0 && pageEntries.length === 0 && eventEntries.length === 0 ? (
                    <Alert color="green" title={t("check.all_passed_title")} data-testid="check-passed">
                      {t("check.all_passed")}
                    </Alert>
                  ) : (
                    <Stack gap="sm">
                      <Text size="sm" c="dimmed">
                        {t("check.count", { count: entries.length + pageEntries.length + eventEntries.length })}
                      </Text>
                      {eventEntries.length > 0 && (
                        <CheckSection id="check-event" title={t("check.event_title")}>
                          {eventEntries.map((entry) => (
                            <FixCard key={entry.issue} testId="check-event-issue" text={t(`check.event.${entry.issue}`, { ratio: entry.ratio })} to={EVENT_FIXES[entry.issue].to} fix={t(EVENT_FIXES[entry.issue].label)} />
                          ))}
                        </CheckSection>
                      )}
                      {pageEntries.length > 0 && (
                        <CheckSection id="check-pages" title={t("check.pages_title")}>
                          {pageEntries.map((entry) => (
                            <FixCard key={entry.issue} testId="check-page-issue" text={t(`check.pages.${entry.issue}`)} to="/admin/cms" fix={t("check.write_page")} fixLabel={`${t("check.write_page")}: ${entry.url}`} />
                          ))}
                        </CheckSection>
                      )}
                      <Title order={2} size="h4">
                        {t("check.challenges_title")}
                      </Title>
                      {entries.length === 0 && (
                        <Text size="sm" c="dimmed" data-testid="check-challenges-passed">
                          {/* With nothing to check, "every challenge passed" would be no news at all. */}
                          {byId.size === 0 && eventEntries.some((e) => e.issue === "no_challenges") ? t("check.no_challenges_to_check") : t("check.challenges_passed")}
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
        )}
      </QueryState>
    </AdminPage>
  );
}
