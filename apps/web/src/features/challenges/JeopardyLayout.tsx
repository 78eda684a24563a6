import { ratingPercent } from "@flagship/shared";
import { Badge, Card, Group, SegmentedControl, SimpleGrid, Stack, Switch, Text, TextInput } from "@mantine/core";
import { useNavigate } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useStaffView } from "../../shell/viewAsPlayer.ts";
import { DifficultyBadge } from "./DifficultyBadge.tsx";
import { LockIcon } from "./icons.tsx";
import { ScheduledBadge } from "./ScheduledBadge.tsx";
import type { CategoryRendererProps } from "./registry.tsx";
import { matchesFilter } from "./TagFilter.tsx";
import { UnlockHint } from "./UnlockHint.tsx";
import "./unlock.css";
import { type ChallengeView, challengeKey, isFull } from "./types.ts";

type Sort = "points" | "solves" | "rating";

const sorters: Record<Sort, (a: ChallengeView, b: ChallengeView) => number> = {
  points: (a, b) => a.current_score - b.current_score,
  solves: (a, b) => b.solve_count - a.solve_count,
  rating: (a, b) => (ratingPercent(b.votes.positive, b.votes.negative) ?? -1) - (ratingPercent(a.votes.positive, a.votes.negative) ?? -1),
};

/** The jeopardy layout: cards with search, sorting by Points, Solves or Rating, and filters. */
export function JeopardyLayout({ category, editing }: CategoryRendererProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<Sort>("points");
  const [showSolved, setShowSolved] = useState(true);
  // Staff see every challenge, locked and hidden ones marked; players choose whether to see locked tiles.
  const staff = useStaffView();
  const [lockedChoice, setShowLocked] = useState<boolean | null>(null);
  const showLockedChoice = lockedChoice ?? staff;
  // In staff edit mode the edit bar's toggle decides.
  const showLocked = editing ? editing.showLocked : showLockedChoice;
  const shown = useMemo(() => {
    const open = category.challenges.filter(isFull).filter((c) => (c.unlocked || showLocked) && (!c.solved || showSolved) && matchesFilter(c, search, null));
    return open.sort((a, b) => sorters[sort](a, b) || a.id - b.id);
  }, [category.challenges, search, sort, showSolved, showLocked]);
  const locked = showLocked ? category.challenges.filter((c) => !isFull(c)) : [];
  const lockedCount = locked.length;

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <TextInput placeholder={t("challenges.search")} aria-label={t("challenges.search")} value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={{ base: "100%", sm: 280 }} />
        <Group gap="md" wrap="wrap">
          <SegmentedControl
            aria-label={t("challenges.sort_by")}
            value={sort}
            onChange={(v) => setSort(v as Sort)}
            data={[
              { value: "points", label: t("challenges.sort_points") },
              { value: "solves", label: t("challenges.sort_solves") },
              { value: "rating", label: t("challenges.sort_rating") },
            ]}
          />
          <Switch label={t("challenges.show_solved")} checked={showSolved} onChange={(e) => setShowSolved(e.currentTarget.checked)} />
          {!editing && <Switch label={t("challenges.show_locked")} checked={showLocked} onChange={(e) => setShowLocked(e.currentTarget.checked)} />}
        </Group>
      </Group>
      {shown.length === 0 && lockedCount === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {category.challenges.length === 0 ? t("challenges.empty_category") : t("challenges.nothing_matches")}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing="md">
          {shown.map((challenge) => (
            <ChallengeCard key={challenge.id} challenge={challenge} staff={staff} onOpen={() => void navigate({ to: "/campaign/$tabId/$chalId", params: { tabId: category.slug, chalId: challengeKey(challenge) }, ...(editing && { hash: "edit" }) })} />
          ))}
          {locked.map((stub) => (
            <Card key={stub.id} withBorder padding="lg" className="challenge-card" data-locked="true" data-testid="locked-card">
              <Stack gap="xs">
                <Group gap={8} wrap="nowrap">
                  <LockIcon size={20} />
                  <Text fw={600}>{t("challenges.locked_tile")}</Text>
                </Group>
                <UnlockHint expression={stub.unlock_requirements} />
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function ChallengeCard({ challenge, staff, onOpen }: { challenge: ChallengeView; staff: boolean; onOpen(): void }) {
  const { t } = useTranslation();
  const locked = !challenge.unlocked && !challenge.solved;
  const rating = ratingPercent(challenge.votes.positive, challenge.votes.negative);
  return (
    <Card
      withBorder
      padding="lg"
      className="challenge-card"
      data-solved={challenge.solved}
      data-maintenance={challenge.maintenance}
      data-locked={locked}
      data-hidden={challenge.hidden}
      data-testid="challenge-tile"
      component="button"
      type="button"
      onClick={onOpen}
      style={{ textAlign: "left", font: "inherit", color: "inherit" }}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} lineClamp={2}>
            {challenge.name}
          </Text>
          <Badge variant="light" style={{ flexShrink: 0 }}>
            {t("challenges.points_short", { points: challenge.current_score })}
          </Badge>
        </Group>
        <Group gap={6}>
          {challenge.solved && <Badge color="green" variant="light" leftSection={<span aria-hidden>✓</span>}>{t("challenges.solved")}</Badge>}
          {staff && locked && (
            <Badge color="gray" variant="light" leftSection={<LockIcon size={12} />} data-testid="locked-badge">
              {t("challenges.locked")}
            </Badge>
          )}
          {staff && challenge.hidden && (
            <Badge color="grape" variant="light" data-testid="hidden-badge">
              {t("challenges.hidden")}
            </Badge>
          )}
          {staff && <ScheduledBadge challenge={challenge} />}
          {challenge.maintenance && (
            <Badge color="orange" variant="light" data-testid="maintenance-badge">
              {t("challenges.maintenance_badge")}
            </Badge>
          )}
          <DifficultyBadge score={challenge.current_score} difficulty={challenge.challenge_metadata.difficulty} />
          {challenge.tags.slice(0, 3).map((tag) => (
            <Badge key={tag.text} variant="outline" color="gray" c="dimmed" size="sm">
              {tag.text}
            </Badge>
          ))}
        </Group>
        {locked && <UnlockHint expression={challenge.unlock_requirements} size="xs" />}
        <Group gap="md">
          <Text size="xs" c="dimmed">
            {t("challenges.solves", { count: challenge.solve_count })}
          </Text>
          <Text size="xs" c="dimmed">
            {rating === null ? t("challenges.no_rating") : t("challenges.rating", { rating })}
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}
