import { Badge, Group, Text } from "@mantine/core";
import { countdownHint, formatCountdown } from "@flagship/shared";
import { useTranslation } from "../../lib/i18n.ts";
import { useSynthwave } from "../theming/themeState.ts";
import { useCountdown } from "./useCountdown.ts";

/**
 * The header countdown: days:hh:mm:ss to the start, then to the end; nothing when past or unset.
 * Its label ('Ends in') gives way on a phone's header unless `labelled` (a page with the room).
 */
export function Countdown({ labelled = false }: { labelled?: boolean }) {
  const { t } = useTranslation();
  const { target, showLoading } = useCountdown();
  const synthwave = useSynthwave();
  if (showLoading) {
    return (
      <Text size="sm" c="dimmed" role="status">
        {t("countdown.loading")}
      </Text>
    );
  }
  if (!target) return null;
  const label = target.kind === "start" ? t("countdown.starts_in") : t("countdown.ends_in");
  const hint = countdownHint(target.remaining);
  return (
    // A native title rather than a Tooltip: the floating-position library stays out of every page's first load.
    <Group
      gap={6}
      wrap="nowrap"
      role="timer"
      aria-label={`${label} ${formatCountdown(target.remaining)}`}
      title={hint ? t(`countdown.hint_${target.kind}`) : new Date(target.at * 1000).toLocaleString()}
      data-testid="countdown"
    >
      <Text size="sm" c="dimmed" {...(!labelled && { visibleFrom: "xs" })}>
        {label}
      </Text>
      {hint && (
        <Text size="sm" c="orange" fw={600} visibleFrom="lg" data-testid="countdown-hint">
          {t(`countdown.hint_${target.kind}`)}
        </Text>
      )}
      <Badge variant={hint ? "filled" : "light"} color={hint ? "orange" : "flagship"} size="lg" ff="monospace" style={{ textTransform: "none" }} className={synthwave ? "countdown-synthwave" : undefined}>
        {formatCountdown(target.remaining)}
      </Badge>
    </Group>
  );
}
