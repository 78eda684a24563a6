import { Badge } from "@mantine/core";
import { useTranslation } from "../../lib/i18n.ts";
import type { ChallengeView } from "./types.ts";
import { useHydrated } from "../../lib/render-clock.ts";

/** When a challenge scheduled for later is released (ms since the epoch), or null once released or with no schedule. */
export function pendingRelease(challenge: ChallengeView): number | null {
  const at = challenge.scheduled_at ? Date.parse(challenge.scheduled_at) : Number.NaN;
  return Number.isFinite(at) && at > Date.now() ? at : null;
}

/** The release time in the reader's language and zone. */
export function useReleaseText(): (at: number) => string {
  const { i18n } = useTranslation();
  return (at) => new Intl.DateTimeFormat(i18n.language || "en", { dateStyle: "medium", timeStyle: "short" }).format(new Date(at));
}

/** Staff's "Scheduled for <time>" on a challenge players do not see yet; nothing once it is released. */
export function ScheduledBadge({ challenge }: { challenge: ChallengeView }) {
  const { t } = useTranslation();
  const releaseText = useReleaseText();
  const at = pendingRelease(challenge);
  // In the reader's zone: drawn once the page is the browser's own.
  const hydrated = useHydrated();
  if (at === null || !hydrated) return null;
  return (
    <Badge color="indigo" variant="light" data-testid="scheduled-badge" style={{ textTransform: "none" }}>
      {t("challenges.scheduled_badge", { time: releaseText(at) })}
    </Badge>
  );
}
