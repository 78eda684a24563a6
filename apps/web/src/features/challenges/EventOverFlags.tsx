import { Alert } from "@mantine/core";
import { addTexts, useTranslation } from "../../lib/i18n.ts";

// Drawn only once the event is over: its code and texts stay out of the challenge page's first load.
addTexts({
  event_over: {
    flags_title: "The event is over",
    flags_body: "Flags are no longer accepted. Thank you for playing!",
    late_title: "The event is over, flags are still checked",
    late_body: "A correct flag marks the challenge solved but no longer scores.",
  },
});

/**
 * Where the flag form was, after the end: that flags are no longer taken, or (with submissions
 * after the end on, the form below it) that a correct one no longer scores.
 */
export function EventOverFlags({ lateFlags }: { lateFlags: boolean }) {
  const { t } = useTranslation();
  return lateFlags ? (
    <Alert color="gray" variant="light" title={t("event_over.late_title")} role="status" data-testid="event-over-late-flags">
      {t("event_over.late_body")}
    </Alert>
  ) : (
    <Alert color="gray" variant="light" title={t("event_over.flags_title")} role="status" data-testid="event-over-flags">
      {t("event_over.flags_body")}
    </Alert>
  );
}
