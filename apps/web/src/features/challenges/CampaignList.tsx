import type { PlacedTile } from "@flagship/shared";
import { Text } from "@mantine/core";
import { useTranslation } from "../../lib/i18n.ts";
import { stateOf } from "./campaign-map.ts";
import { LockIcon } from "./icons.tsx";
import { type AnyChallengeView, isFull } from "./types.ts";
import { UnlockHint } from "./UnlockHint.tsx";

/**
 * The campaign as a list, in the map's order (row by row): each challenge with its state and
 * points, a locked one with what unlocks it. For a phone, where the map would be too small to
 * read, and for anyone who prefers it.
 */
export function CampaignList({
  challenges,
  placed,
  nextId,
  isDimmed,
  onOpen,
}: {
  challenges: AnyChallengeView[];
  placed: PlacedTile[];
  nextId: number | null;
  isDimmed(challenge: AnyChallengeView): boolean;
  onOpen(challenge: AnyChallengeView): void;
}) {
  const { t } = useTranslation();
  const order = new Map(placed.map((p) => [p.id, p.y * 1000 + p.x]));
  const sorted = [...challenges].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return (
    <ul className="campaign-list" data-testid="campaign-list">
      {sorted.map((challenge) => {
        const state = stateOf(challenge);
        const dimmed = isDimmed(challenge);
        if (!isFull(challenge)) {
          return (
            <li key={challenge.id} className="campaign-row" data-state="locked" data-dimmed={dimmed}>
              <span className="campaign-row-mark" aria-hidden>
                <LockIcon size={18} />
              </span>
              <div className="campaign-row-main">
                <Text fw={600}>{t("challenges.locked_tile")}</Text>
                <UnlockHint expression={challenge.unlock_requirements} size="sm" c="dimmed" />
              </div>
            </li>
          );
        }
        const next = challenge.id === nextId;
        return (
          <li key={challenge.id} className="campaign-row" data-state={state} data-dimmed={dimmed} data-next={next}>
            <button type="button" className="campaign-row-button" onClick={() => onOpen(challenge)}>
              <span className="campaign-row-mark" aria-hidden>
                {state === "solved" ? "✓" : ""}
              </span>
              <span className="campaign-row-main">
                <Text component="span" fw={600} display="block" style={{ wordBreak: "break-word" }}>
                  {challenge.name}
                </Text>
                <Text component="span" size="sm" c="dimmed" display="block">
                  {[t(`challenges.${state}`), ...(challenge.maintenance ? [t("challenges.maintenance_badge")] : []), ...(next ? [t("challenges.legend_next")] : [])].join(" · ")}
                </Text>
              </span>
              <Text component="span" fw={700} ff="monospace" className="campaign-row-points">
                {t("challenges.points_short", { points: challenge.current_score })}
              </Text>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
