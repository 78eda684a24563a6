import { Alert } from "@mantine/core";
import { useTranslation } from "../../lib/i18n.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { formatEventTime } from "./event-time.ts";
import "./texts.ts";
import { useEventMoment } from "./useEventMoment.ts";

/**
 * Says that the scoreboard is frozen and since when, on every view of scores (leaderboard,
 * projector, team and profile pages). Players and visitors learn that later solves are hidden;
 * staff, who see everything live, learn what players see and where the reveal is.
 */
export function FreezeNotice({ staffView, compact = false }: { staffView: boolean; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const { me } = useAppData();
  const moment = useEventMoment();
  if (!moment?.frozenAt) return null;
  const time = formatEventTime(i18n.language, moment.frozenAt);
  const title = staffView ? t("moments.frozen_staff_title", { time }) : t("moments.frozen_title", { time });
  const body = staffView
    ? t("moments.frozen_staff_body")
    : moment.phase === "ended"
      ? t("moments.frozen_ended_body")
      : me?.teamId
        ? t("moments.frozen_body")
        : t("moments.frozen_body_visitor");
  return (
    <Alert color="cyan" variant="light" title={title} data-testid="freeze-notice" role="status" p={compact ? "xs" : undefined}>
      {body}
    </Alert>
  );
}
