import { Anchor, Badge, Button, Group, Stack, Table, Text, UnstyledButton } from "@mantine/core";
import { ratingPercent } from "@flagship/shared";
import { choicesOf } from "../authoring/choices.tsx";
import "../authoring/texts.ts";
import { Link } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useCategories } from "../challenges/useCategories.ts";
import { challengeKey, isFull } from "../challenges/types.ts";
import type { CategoryView, ChallengeView } from "../challenges/types.ts";
import { AdminPage, EmptyState, QueryState } from "./AdminPage.tsx";
import { StackedTable } from "./StackedTable.tsx";
import "./texts.ts";

interface Row {
  challenge: ChallengeView;
  category: CategoryView;
  rating: number | null;
}

type SortKey = "name" | "category" | "score" | "solves" | "rating" | "flag_type";

const SORTS: Record<SortKey, (a: Row, b: Row) => number> = {
  name: (a, b) => a.challenge.name.localeCompare(b.challenge.name),
  category: (a, b) => a.category.name.localeCompare(b.category.name) || a.challenge.score - b.challenge.score,
  score: (a, b) => a.challenge.score - b.challenge.score,
  solves: (a, b) => a.challenge.solve_count - b.challenge.solve_count,
  rating: (a, b) => (a.rating ?? -1) - (b.rating ?? -1),
  flag_type: (a, b) => flagTypeLabel(a.challenge.flag_type).localeCompare(flagTypeLabel(b.challenge.flag_type)),
};

/** A flag type as the editor names it ('plaintext' is 'Exact text'). */
const flagTypeLabel = (flagType: string) => choicesOf("flag_type", [flagType])[0]!.label;

/** Link props of a challenge's editor (/campaign/{category}/{challenge}#edit). */
export function editorLink(category: CategoryView, challenge: ChallengeView) {
  return { to: `/campaign/${encodeURIComponent(category.slug || String(category.id))}/${encodeURIComponent(challengeKey(challenge))}`, hash: "edit" };
}

/** /admin/allChallenges: every challenge of every category in one sortable table. */
export function ChallengeOverviewPage() {
  const { t } = useTranslation();
  const categories = useCategories();
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: "category", desc: false });
  const rows = useMemo(() => {
    const all: Row[] = (categories.data ?? []).flatMap((category) =>
      category.challenges.filter(isFull).map((challenge) => ({ challenge, category, rating: ratingPercent(challenge.votes.positive, challenge.votes.negative) })),
    );
    const compare = SORTS[sort.key];
    return all.sort((a, b) => (sort.desc ? compare(b, a) : compare(a, b)));
  }, [categories.data, sort]);

  const header = (key: SortKey, label: string, align?: "right") => {
    const active = sort.key === key;
    return (
      <Table.Th ta={align} aria-sort={active ? (sort.desc ? "descending" : "ascending") : "none"}>
        <UnstyledButton onClick={() => setSort({ key, desc: active ? !sort.desc : false })} fw={700} fz="sm">
          {label} {active ? (sort.desc ? "▼" : "▲") : ""}
        </UnstyledButton>
      </Table.Th>
    );
  };

  return (
    <AdminPage title={t("admin.allChallenges")} intro={t("overview.intro")}>
      <QueryState query={categories}>
        {() =>
          rows.length === 0 ? (
            <Stack align="center" gap="sm">
              <EmptyState>{(categories.data ?? []).length === 0 ? t("overview.empty_no_categories") : t("overview.empty")}</EmptyState>
              <Group gap="sm" justify="center">
                <Button component={Link} to="/campaign/new">
                  {t("overview.new_category")}
                </Button>
                {(categories.data ?? []).length > 0 && (
                  <Button component={Link} to="/campaign" variant="default">
                    {t("overview.open_categories")}
                  </Button>
                )}
              </Group>
            </Stack>
          ) : (
            <StackedTable minWidth={900} sortable>
              <Table striped highlightOnHover verticalSpacing="xs" data-testid="challenge-overview">
                <Table.Thead>
                  <Table.Tr>
                    {header("name", t("overview.name"))}
                    {header("category", t("overview.category"))}
                    {header("score", t("overview.score"), "right")}
                    {header("solves", t("overview.solves"), "right")}
                    <Table.Th>{t("overview.first_blood")}</Table.Th>
                    <Table.Th>{t("overview.state")}</Table.Th>
                    <Table.Th ta="right">{t("overview.votes")}</Table.Th>
                    {header("rating", t("overview.rating"), "right")}
                    {header("flag_type", t("overview.flag_type"))}
                    <Table.Th>{t("overview.server")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map(({ challenge, category, rating }) => (
                    <Table.Tr key={challenge.id}>
                      <Table.Td data-label={t("overview.name")}>
                        <Anchor component={Link} {...editorLink(category, challenge)} fw={600}>
                          {challenge.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td data-label={t("overview.category")}>{category.name}</Table.Td>
                      <Table.Td data-label={t("overview.score")} ta="right">
                        {challenge.current_score !== challenge.score ? `${challenge.current_score} / ${challenge.score}` : challenge.score}
                      </Table.Td>
                      <Table.Td data-label={t("overview.solves")} ta="right">{challenge.solve_count}</Table.Td>
                      <Table.Td data-label={t("overview.first_blood")}>{challenge.first_blood ?? <Text c="dimmed">—</Text>}</Table.Td>
                      <Table.Td data-label={t("overview.state")}>
                        <Group gap={4}>
                          {challenge.hidden && (
                            <Badge size="sm" variant="light" color="gray">
                              {t("overview.hidden")}
                            </Badge>
                          )}
                          {challenge.maintenance && (
                            <Badge size="sm" variant="light" color="orange">
                              {t("overview.maintenance")}
                            </Badge>
                          )}
                          {challenge.unlock_requirements.trim() !== "" && (
                            <Badge size="sm" variant="light" color="grape">
                              {t("overview.locked")}
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td data-label={t("overview.votes")} ta="right" style={{ whiteSpace: "nowrap" }}>
                        +{challenge.votes.positive} / −{challenge.votes.negative}
                      </Table.Td>
                      <Table.Td data-label={t("overview.rating")} ta="right">{rating === null ? "—" : `${rating}%`}</Table.Td>
                      <Table.Td data-label={t("overview.flag_type")}>{flagTypeLabel(challenge.flag_type)}</Table.Td>
                      <Table.Td data-label={t("overview.server")}>
                        {typeof challenge.challenge_metadata.cserv_name === "string" ? (
                          <Anchor component={Link} to="/admin/jobs" ff="monospace">
                            {challenge.challenge_metadata.cserv_name}
                          </Anchor>
                        ) : (
                          // The job adder is on the challenge's page.
                          <Anchor component={Link} to={editorLink(category, challenge).to} title={t("overview.add_job_for", { name: challenge.name })}>
                            {t("overview.add_job")}
                          </Anchor>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </StackedTable>
          )
        }
      </QueryState>
    </AdminPage>
  );
}
