import "./challenges.css";
import { CAMPAIGN_COLUMNS, placeTiles, tileLinks, type TileInput } from "@flagship/shared";
import { Box, Button, Group, Modal, ScrollArea, Stack, Text } from "@mantine/core";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ChallengeBody } from "./ChallengeBody.tsx";
import { ArrowLeftIcon, LockIcon } from "./icons.tsx";
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
export function CampaignGrid({ category }: CategoryRendererProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const [tag, setTag] = useState<string | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const { placed, links, rows } = useMemo(() => {
    const tiles: TileInput[] = category.challenges.map((c) => ({
      id: c.id,
      x: c.challenge_metadata.x,
      y: c.challenge_metadata.y,
      score: isFull(c) ? c.current_score : null,
      unlockRequirements: c.unlock_requirements,
      solved: isFull(c) && c.solved,
    }));
    const placed = placeTiles(tiles, CAMPAIGN_COLUMNS);
    return { placed, links: tileLinks(tiles, placed), rows: Math.max(1, ...placed.map((p) => p.y + 1)) };
  }, [category.challenges]);
  const byId = new Map(category.challenges.map((c) => [c.id, c]));
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
      <ScrollArea type="auto" offsetScrollbars>
        <div className="campaign-grid" style={{ gridTemplateRows: `repeat(${rows}, auto)` }} data-testid="campaign-grid">
          {Array.from({ length: rows * CAMPAIGN_COLUMNS }, (_, index) => {
            const x = index % CAMPAIGN_COLUMNS;
            const y = Math.floor(index / CAMPAIGN_COLUMNS);
            const id = at.get(`${x},${y}`);
            const challenge = id === undefined ? undefined : byId.get(id);
            return (
              <div key={`${x},${y}`} className="campaign-cell" style={{ gridColumn: x + 1, gridRow: y + 1 }}>
                {challenge && <Tile challenge={challenge} dimmed={filtering && !matchesFilter(challenge, search, tag)} onOpen={() => setOpenId(challenge.id)} />}
                {links
                  .filter((link) => link.from === id)
                  .map((link) => (
                    <span key={`${link.from}-${link.to}`} className="campaign-link" data-direction={link.direction} data-state={link.state} aria-hidden />
                  ))}
              </div>
            );
          })}
        </div>
      </ScrollArea>
      <Modal opened={open !== undefined && isFull(open)} onClose={() => setOpenId(null)} size="xl" withCloseButton={false} padding="lg">
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
      </Modal>
    </Stack>
  );
}

function Tile({ challenge, dimmed, onOpen }: { challenge: AnyChallengeView; dimmed: boolean; onOpen(): void }) {
  const { t } = useTranslation();
  const state = stateOf(challenge);
  if (!isFull(challenge)) {
    return (
      <Box className="campaign-tile" data-state="locked" data-dimmed={dimmed} aria-label={t("challenges.locked_tile")} role="img">
        <LockIcon size={24} />
        <Text size="xs">{t("challenges.locked")}</Text>
      </Box>
    );
  }
  return (
    <button type="button" className="campaign-tile" data-state={state} data-dimmed={dimmed} onClick={onOpen} aria-label={`${challenge.name}, ${t(`challenges.${state}`)}`}>
      <Text size="sm" fw={600} lineClamp={2} style={{ wordBreak: "break-word" }}>
        {challenge.name}
      </Text>
      <Text size="xs" c={state === "solved" ? "green" : "dimmed"} fw={500}>
        {state === "solved" ? t("challenges.solved") : t("challenges.points_short", { points: challenge.current_score })}
      </Text>
    </button>
  );
}
