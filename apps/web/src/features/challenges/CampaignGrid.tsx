import "./challenges.css";
import { CAMPAIGN_COLUMNS, placeTiles, tileLinks, type TileInput } from "@flagship/shared";
import { Button, Group, Stack, Text } from "@mantine/core";
import { useNavigate } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { CampaignViewport } from "./CampaignViewport.tsx";
import { ChallengeBody } from "./ChallengeBody.tsx";
import { LockedTile, MaintenanceMark } from "./LockedTile.tsx";
import { ArrowLeftIcon } from "./icons.tsx";
import type { CategoryRendererProps } from "./registry.tsx";
import { matchesFilter, TagFilter } from "./TagFilter.tsx";
import { type AnyChallengeView, isFull } from "./types.ts";

type TileState = "solved" | "unlocked" | "locked" | "hidden";

function stateOf(challenge: AnyChallengeView): TileState {
  if (!isFull(challenge)) return "locked";
  if (challenge.solved) return "solved";
  if (challenge.hidden) return "hidden";
  return challenge.unlocked ? "unlocked" : "locked";
}

/**
 * The campaign layout: tiles auto-placed over 7 columns by score (or at challenge_metadata x and
 * y), linked where one unlocks the other. A tile opens its challenge in a modal with Back.
 */
export function CampaignGrid({ category, editing }: CategoryRendererProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [dragging, setDragging] = useState<number | null>(null);
  const [search, setSearch] = useState("");
  const [tag, setTag] = useState<string | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const challenges = useMemo(
    () => (editing && !editing.showLocked ? category.challenges.filter((c) => isFull(c) && (c.unlocked || c.solved)) : category.challenges),
    [category.challenges, editing],
  );
  const { placed, links, rows } = useMemo(() => {
    const tiles: TileInput[] = challenges.map((c) => ({
      id: c.id,
      x: c.challenge_metadata.x,
      y: c.challenge_metadata.y,
      score: isFull(c) ? c.current_score : null,
      unlockRequirements: c.unlock_requirements,
      solved: isFull(c) && c.solved,
    }));
    const placed = placeTiles(tiles, CAMPAIGN_COLUMNS);
    // Staff get a spare row to drag tiles into.
    return { placed, links: tileLinks(tiles, placed), rows: Math.max(1, ...placed.map((p) => p.y + 1)) + (editing ? 1 : 0) };
  }, [challenges, editing]);
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
      <TagFilter challenges={category.challenges} search={search} onSearch={setSearch} tag={tag} onTag={setTag} />
      <CampaignViewport>
        <div className="campaign-grid" style={{ gridTemplateRows: `repeat(${rows}, auto)` }} data-testid="campaign-grid">
          {Array.from({ length: rows * CAMPAIGN_COLUMNS }, (_, index) => {
            const x = index % CAMPAIGN_COLUMNS;
            const y = Math.floor(index / CAMPAIGN_COLUMNS);
            const id = at.get(`${x},${y}`);
            const challenge = id === undefined ? undefined : byId.get(id);
            return (
              <div
                key={`${x},${y}`}
                className="campaign-cell"
                style={{ gridColumn: x + 1, gridRow: y + 1 }}
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
                    onOpen={() =>
                      editing && isFull(challenge)
                        ? void navigate({ to: `/campaign/${category.slug}/${challenge.slug || challenge.id}`, hash: "edit" })
                        : setOpenId(challenge.id)
                    }
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

function Tile({ challenge, dimmed, onOpen, drag }: { challenge: AnyChallengeView; dimmed: boolean; onOpen(): void; drag?: TileDrag }) {
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
    <button type="button" className="campaign-tile" data-state={state} data-dimmed={dimmed} onClick={onOpen} aria-label={[challenge.name, t(`challenges.${state}`), ...(challenge.maintenance ? [t("challenges.maintenance_badge")] : [])].join(", ")} data-maintenance={challenge.maintenance} {...dragProps}>
      <Text size="sm" fw={600} lineClamp={2} style={{ wordBreak: "break-word" }}>
        {challenge.name}
      </Text>
      <Text size="xs" c={state === "solved" ? undefined : "dimmed"} fw={state === "solved" ? 700 : 500}>
        {state === "solved" ? <><span aria-hidden>✓ </span>{t("challenges.solved")}</> : t("challenges.points_short", { points: challenge.current_score })}
      </Text>
      {challenge.maintenance && <MaintenanceMark />}
    </button>
  );
}
