import { Stack, Text } from "@mantine/core";
import { addTexts, useTranslation } from "../../lib/i18n.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { formatEventTime, sameZone } from "../moments/event-time.ts";

// Drawn only on the lock page: its code and texts stay out of the challenge page's first load.
addTexts({
  lock_opens: {
    at: "Opens {{time}} (your time)",
    at_event: "{{time}} in the event's time zone",
  },
});

/** When the event opens: in the player's own time and, when it differs, in the event's time zone. */
export function LockOpens({ at }: { at: number }) {
  const { t, i18n } = useTranslation();
  const { config } = useAppData();
  const zone = config?.event_timezone ?? "UTC";
  return (
    <Stack gap={2} data-testid="lock-opens">
      <Text fw={500}>{t("lock_opens.at", { time: formatEventTime(i18n.language, at) })}</Text>
      {!sameZone(at, zone) && (
        <Text size="sm" c="dimmed">
          {t("lock_opens.at_event", { time: formatEventTime(i18n.language, at, zone) })}
        </Text>
      )}
    </Stack>
  );
}
