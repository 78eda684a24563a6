import { Badge, Group, Text } from "@mantine/core";
import { countdownHint, formatCountdownWords } from "@flagship/shared";
import { useTranslation } from "../../lib/i18n.ts";
import { useSynthwave } from "../theming/themeState.ts";
import "./countdown.css";
import "./texts.ts";
import { useCountdown } from "./useCountdown.ts";
import { useHydrated } from "../../lib/render-clock.ts";

/**
 * The header countdown in words ("8 h 59 m", "2 d 4 h"; seconds only in the last hour) to the
 * start, then to the end; "Event over" once the end has passed; nothing when unset. Its label ('Ends in') is always shown: beside
 * the time where there is room, above it in small type on a phone's header.
 */
export function Countdown({ labelled = false }: { labelled?: boolean }) {
  const { t } = useTranslation();
  const { target, flags, showLoading } = useCountdown({ step: "words" });
  const synthwave = useSynthwave();
  // The moment in the reader's zone (the title), once the page is the browser's own (the server knows no zone).
  const hydrated = useHydrated();
  if (showLoading) {
    return (
      <Text size="sm" c="dimmed" role="status">
        {t("countdown.loading")}
      </Text>
    );
  }
  // After the end the header says so rather than going quiet.
  if (!target)
    return flags?.competition_end ? (
      <Badge variant="light" color="gray" size="lg" role="status" tt="none" data-testid="event-over">
        {t("countdown.ended")}
      </Badge>
    ) : null;
  const label = target.kind === "start" ? t("countdown.starts_in") : t("countdown.ends_in");
  const hint = countdownHint(target.remaining);
  const short = formatCountdownWords(target.remaining, (unit, count) => t(`countdown.short_${unit}`, { count }));
  const spoken = formatCountdownWords(target.remaining, (unit, count) => t(`countdown.long_${unit}`, { count }));
  return (
    // A native title rather than a Tooltip: the floating-position library stays out of every page's first load.
    <Group
      gap={6}
      wrap="nowrap"
      role="timer"
      aria-label={`${label} ${spoken}`}
      title={hint ? t(`countdown.hint_${target.kind}`) : hydrated ? new Date(target.at * 1000).toLocaleString() : undefined}
      data-testid="countdown"
      className={labelled ? undefined : "countdown-stack"}
    >
      <Text component="span" size="sm" c="dimmed" className="countdown-label" data-testid="countdown-label" aria-hidden>
        {label}
      </Text>
      {hint && (
        <Text size="sm" c="orange" fw={600} visibleFrom="lg" data-testid="countdown-hint">
          {t(`countdown.hint_${target.kind}`)}
        </Text>
      )}
      <Badge
        variant={hint ? "filled" : "light"}
        color={hint ? "orange" : "flagship"}
        size="lg"
        style={{ textTransform: "none", fontVariantNumeric: "tabular-nums" }}
        className={synthwave ? "countdown-synthwave" : undefined}
        data-testid="countdown-time"
        aria-hidden
      >
        {short}
      </Badge>
    </Group>
  );
}
