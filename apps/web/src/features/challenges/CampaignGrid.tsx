import "@mantine/core/styles/Progress.css";
import "./challenges.css";
import { CAMPAIGN_COLUMNS, placeTiles, tileLinks, type TileInput } from "@flagship/shared";
import { Button, Group, Progress, SegmentedControl, Stack, Text, VisuallyHidden } from "@mantine/core";
import { useElementSize } from "@mantine/hooks";
import { useNavigate } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { campaignProgress, fitMap, mapBounds, nextChallenge, stateOf } from "./campaign-map.ts";
import { CampaignList } from "./CampaignList.tsx";
import { CampaignViewport } from "./CampaignViewport.tsx";
import { ChallengeBody } from "./ChallengeBody.tsx";
import { LockedTile, MaintenanceMark } from "./LockedTile.tsx";
import { ArrowLeftIcon } from "./icons.tsx";
import type { CategoryRendererProps } from "./registry.tsx";
import { matchesFilter, TagFilter } from "./TagFilter.tsx";
import { type AnyChallengeView, isFull } from "./types.ts";

/**
 * The campaign layout: tiles auto-placed over 7 columns by score (or at challenge_metadata x and
 * y), linked where one unlocks the other. A tile opens its challenge in a modal with Back. The map
 * is cropped to the cells in use and its tiles grown to fill the width (up to a size); above it the
 * player's progress, the suggested next challenge and a legend. Where the map does not fit (a
 * phone) it opens as a list, and either view can be chosen.
 */
export function CampaignGrid({ category, editing }: CategoryRendererProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [dragging, setDragging] = useState<number | null>(null);
  const [search, setSearch] = useState("");
  const [tag, setTag] = useState<string | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const [chosenView, setChosenView] = useState<"map" | "list" | null>(null);
  const { ref: frameRef, width: frameWidth } = useElementSize();
  const challenges = useMemo(
    () => (editing && !editing.showLocked ? category.challenges.filter((c) => isFull(c) && (c.unlocked || c.solved)) : category.challenges),
    [category.challenges, editing],
  );
  const { placed, links, bounds } = useMemo(() => {
    const tiles: TileInput[] = challenges.map((c) => ({
      id: c.id,
      x: c.challenge_metadata.x,
      y: c.challenge_metadata.y,
      score: isFull(c) ? c.current_score : null,
      unlockRequirements: c.unlock_requirements,
      solved: isFull(c) && c.solved,
    }));
    const placed = placeTiles(tiles, CAMPAIGN_COLUMNS);
    // Staff see every column and get a spare row to drag tiles into; players see the cells in use.
    const bounds = editing
      ? { minX: 0, minY: 0, columns: CAMPAIGN_COLUMNS, rows: Math.max(1, ...placed.map((p) => p.y + 1)) + 1 }
      : mapBounds(placed);
    return { placed, links: tileLinks(tiles, placed), bounds };
  }, [challenges, editing]);
  const { minX, minY, columns, rows } = bounds;
  const fit = fitMap(frameWidth, columns);
  const progress = campaignProgress(category.challenges);
  const next = nextChallenge(category.challenges, placed);
  const view = editing ? "map" : (chosenView ?? (frameWidth > 0 && !fit.fits ? "list" : "map"));
  const openChallenge = (challenge: AnyChallengeView) =>
    editing && isFull(challenge) ? void navigate({ to: `/campaign/${category.slug}/${challenge.slug || challenge.id}`, hash: "edit" }) : setOpenId(challenge.id);
  const byId = new Map(challenges.map((c) => [c.id, c]));
  const positionOf = new Map(placed.map((p) => [p.id, p]));
  /** Moves a tile to (x, y); a tile already there takes the moved tile's old place. */
  const moveTo = (id: number, x: number, y: number) => {
    const from = positionOf.get(id);
    if (!editing || !from || x < 0 || y < 0 || x >= CAMPAIGN_COLUMNS || (from.x === x && from.y === y)) return;
    const other = at.get(`${x},${y}`);
    editing.onMove(other === undefined ? [{ id, x, y }] : [{ id, x, y }, { id: other, x: from.x, y: from.y }]);
  };
  const at = new Map(placed.map((p) => [`${p.x},${p.y}`, p.id]));
  const filtering = search.trim() !== "" || tag !== null;
  const open = openId === null ? undefined : byId.get(openId);

  if (category.challenges.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        {t("challenges.empty_category")}
      </Text>
    );
  }
  return (
    <Stack gap="md">
      {!editing && <CampaignSummary progress={progress} next={next} onNext={() => next && setOpenId(next.id)} hasHidden={category.challenges.some((c) => isFull(c) && c.hidden)} />}
      <Group justify="space-between" align="flex-end" gap="sm">
        <TagFilter challenges={category.challenges} search={search} onSearch={setSearch} tag={tag} onTag={setTag} />
        {!editing && (
          <SegmentedControl
            aria-label={t("challenges.view")}
            value={view}
            onChange={(value) => setChosenView(value === "list" ? "list" : "map")}
            data={[
              { value: "map", label: t("challenges.view_map") },
              { value: "list", label: t("challenges.view_list") },
            ]}
            data-testid="campaign-view"
          />
        )}
      </Group>
      <div ref={frameRef} className="campaign-frame">
        {view === "list" ? (
          <CampaignList challenges={challenges} placed={placed} nextId={next?.id ?? null} isDimmed={(c) => filtering && !matchesFilter(c, search, tag)} onOpen={openChallenge} />
        ) : (
      <CampaignViewport boxWidth={frameWidth} mapWidth={fit.width}>
        <div
          className="campaign-grid"
          style={{ gridTemplateRows: `repeat(${rows}, auto)`, "--campaign-columns": columns, ...(frameWidth > 0 && { "--tile-size": `${fit.tile}px` }) } as React.CSSProperties}
          data-testid="campaign-grid"
        >
          {Array.from({ length: rows * columns }, (_, index) => {
            const x = minX + (index % columns);
            const y = minY + Math.floor(index / columns);
            const id = at.get(`${x},${y}`);
            const challenge = id === undefined ? undefined : byId.get(id);
            return (
              <div
                key={`${x},${y}`}
                className="campaign-cell"
                style={{ gridColumn: x - minX + 1, gridRow: y - minY + 1 }}
                data-cell={`${x},${y}`}
                data-drop={editing && dragging !== null ? "true" : undefined}
                onDragOver={editing ? (e) => e.preventDefault() : undefined}
                onDrop={
                  editing
                    ? (e) => {
                        e.preventDefault();
                        const id = Number(e.dataTransfer.getData("text/plain"));
                        setDragging(null);
                        if (Number.isInteger(id)) moveTo(id, x, y);
                      }
                    : undefined
                }
              >
                {challenge && (
                  <Tile
                    challenge={challenge}
                    dimmed={filtering && !matchesFilter(challenge, search, tag)}
                    next={!editing && challenge.id === next?.id}
                    onOpen={() => openChallenge(challenge)}
                    {...(editing && {
                      drag: {
                        onStart: () => setDragging(challenge.id),
                        onEnd: () => setDragging(null),
                        onKeyMove: (dx: number, dy: number) => moveTo(challenge.id, x + dx, y + dy),
                      },
                    })}
                  />
                )}
                {links
                  .filter((link) => link.from === id)
                  .map((link) => (
                    <span key={`${link.from}-${link.to}`} className="campaign-link" data-direction={link.direction} data-state={link.state} aria-hidden />
                  ))}
              </div>
            );
          })}
        </div>
      </CampaignViewport>
        )}
      </div>
      <Dialog opened={open !== undefined && isFull(open)} onClose={() => setOpenId(null)} size="xl" withCloseButton={false} padding="lg">
        {open && isFull(open) && (
          <Stack>
            <Group>
              <Button variant="subtle" onClick={() => setOpenId(null)} leftSection={<ArrowLeftIcon size={16} />}>
                {t("challenges.back")}
              </Button>
            </Group>
            <ChallengeBody challenge={open} inDialog />
          </Stack>
        )}
      </Dialog>
    </Stack>
  );
}

interface TileDrag {
  onStart(): void;
  onEnd(): void;
  /** Alt + arrow keys move the tile by one cell. */
  onKeyMove(dx: number, dy: number): void;
}

const KEY_MOVES: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function Tile({ challenge, dimmed, next, onOpen, drag }: { challenge: AnyChallengeView; dimmed: boolean; next: boolean; onOpen(): void; drag?: TileDrag }) {
  const { t } = useTranslation();
  const state = stateOf(challenge);
  const dragProps = drag
    ? {
        draggable: true,
        onDragStart: (e: React.DragEvent) => {
          e.dataTransfer.setData("text/plain", String(challenge.id));
          e.dataTransfer.effectAllowed = "move";
          drag.onStart();
        },
        onDragEnd: drag.onEnd,
        onKeyDown: (e: React.KeyboardEvent) => {
          const move = KEY_MOVES[e.key];
          if (!move || !e.altKey) return;
          e.preventDefault();
          drag.onKeyMove(move[0], move[1]);
        },
        "aria-keyshortcuts": "Alt+ArrowLeft Alt+ArrowRight Alt+ArrowUp Alt+ArrowDown",
        "data-testid": `tile-${challenge.id}`,
      }
    : {};
  if (!isFull(challenge)) return <LockedTile challenge={challenge} dimmed={dimmed} />;
  return (
    <button
      type="button"
      className="campaign-tile"
      data-state={state}
      data-dimmed={dimmed}
      data-next={next}
      onClick={onOpen}
      aria-label={[
        challenge.name,
        t(`challenges.${state}`),
        ...(challenge.maintenance ? [t("challenges.maintenance_badge")] : []),
        t("challenges.points", { points: challenge.current_score }),
        ...(next ? [t("challenges.next_label")] : []),
      ].join(", ")}
      data-maintenance={challenge.maintenance}
      {...dragProps}
    >
      {next && (
        <span className="tile-next" aria-hidden>
          {t("challenges.next_badge")}
        </span>
      )}
      {/* Staff see every tile: one players cannot open yet, or never, says so on its face. */}
      {(state === "locked" || state === "hidden") && (
        <span className="tile-flag" data-testid="tile-flag" aria-hidden>
          {t(`challenges.${state}`)}
        </span>
      )}
      <Text className="tile-name" fw={600} lineClamp={2} style={{ wordBreak: "break-word" }}>
        {challenge.name}
      </Text>
      <Text className="tile-points" fw={state === "solved" ? 700 : 500} data-testid="tile-points">
        {t("challenges.points_short", { points: challenge.current_score })}
      </Text>
      {state === "solved" && <SolvedMark />}
      {challenge.maintenance && <MaintenanceMark />}
    </button>
  );
}

/** A solved tile's check in its corner (its name and the word, for assistive technology, say solved). */
function SolvedMark() {
  const { t } = useTranslation();
  return (
    <span className="tile-solved" data-testid="tile-solved">
      <span aria-hidden>✓</span>
      <VisuallyHidden>{t("challenges.solved")}</VisuallyHidden>
    </span>
  );
}

/** The player's progress through the category, the suggested next challenge, and the map's legend. */
function CampaignSummary({ progress, next, onNext, hasHidden }: { progress: ReturnType<typeof campaignProgress>; next: AnyChallengeView | null; onNext(): void; hasHidden: boolean }) {
  const { t } = useTranslation();
  const points =
    progress.locked > 0
      ? t("challenges.points_progress_locked", { earned: progress.earned, available: progress.available, count: progress.locked })
      : t("challenges.points_progress", { earned: progress.earned, available: progress.available });
  const legend: { state: string; label: string }[] = [
    { state: "solved", label: t("challenges.legend_solved") },
    { state: "unlocked", label: t("challenges.legend_open") },
    { state: "locked", label: t("challenges.legend_locked") },
    ...(hasHidden ? [{ state: "hidden", label: t("challenges.legend_hidden") }] : []),
    ...(next ? [{ state: "next", label: t("challenges.legend_next") }] : []),
  ];
  return (
    <div className="campaign-summary" data-testid="campaign-summary">
      <Stack gap={6} className="campaign-progress">
        <Group gap="md" align="baseline" wrap="wrap">
          <Text fw={700} size="lg" data-testid="campaign-solved">
            {t("challenges.solved_count", { solved: progress.solved, total: progress.total })}
          </Text>
          <Text c="dimmed" size="sm" data-testid="campaign-points">
            {points}
          </Text>
        </Group>
        <Progress value={progress.total === 0 ? 0 : (100 * progress.solved) / progress.total} color="var(--fs-success)" size="md" radius="xl" aria-label={t("challenges.map_progress")} />
      </Stack>
      {next ? (
        <Button variant="light" onClick={onNext} data-testid="campaign-next" className="campaign-next">
          {t("challenges.next_step", { name: isFull(next) ? next.name : "" })}
        </Button>
      ) : (
        progress.total > 0 &&
        progress.solved === progress.total && (
          <Text fw={600}>
            {t("challenges.all_solved")}
          </Text>
        )
      )}
      <ul className="campaign-legend" aria-label={t("challenges.legend")} data-testid="campaign-legend">
        {legend.map((item) => (
          <li key={item.state}>
            <span className="legend-swatch" data-state={item.state} aria-hidden />
            {item.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
