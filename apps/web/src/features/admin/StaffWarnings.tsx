import { Alert, Button, Group, Stack } from "@mantine/core";
import { formatCountdown, STAFF_WARNING_LEVEL, type StaffWarning, staffWarnings } from "@flagship/shared";
import { useLocalStorage } from "@mantine/hooks";
import { useTranslation } from "../../lib/i18n.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { useCountdown } from "../countdown/useCountdown.ts";
import "./staff-warnings-texts.ts";

type Tab = StaffWarning | "countdown";

/**
 * The staff toggle tabs above every page: each warning that applies (and the event countdown) is
 * a banner that folds into a small tab when hidden, and opens again from it. Staff only.
 */
export function StaffWarnings() {
  const { t } = useTranslation();
  const { config, me } = useAppData();
  const { target } = useCountdown();
  const [folded, setFolded] = useLocalStorage<Tab[]>({ key: "flagship.staff-warnings-folded", defaultValue: [] });
  if (!me?.staffPowers || !config) return null;
  const active: Tab[] = [...staffWarnings(config as Parameters<typeof staffWarnings>[0], Date.now() / 1000), ...(target ? (["countdown"] as const) : [])];
  if (active.length === 0) return null;
  const isFolded = (tab: Tab) => folded.includes(tab);
  const toggle = (tab: Tab) => setFolded((list) => (list.includes(tab) ? list.filter((x) => x !== tab) : [...list, tab]));
  const color = (tab: Tab) => (tab === "countdown" ? "flagship" : STAFF_WARNING_LEVEL[tab] === "danger" ? "red" : "yellow");
  const text = (tab: Tab) =>
    tab === "countdown" && target
      ? t(target.kind === "start" ? "staff_warnings.countdown_start" : "staff_warnings.countdown_end", { time: formatCountdown(target.remaining) })
      : t(`staff_warnings.${tab}`);

  const open = active.filter((tab) => !isFolded(tab));
  const closed = active.filter(isFolded);
  return (
    <Stack gap={6} mb="md" component="section" aria-label={t("staff_warnings.label")} data-testid="staff-warnings">
      {open.map((tab) => (
        <Alert
          key={tab}
          color={color(tab)}
          variant="light"
          py={8}
          withCloseButton
          closeButtonLabel={t("staff_warnings.hide", { warning: text(tab) })}
          onClose={() => toggle(tab)}
          data-testid={`staff-warning-${tab}`}
        >
          {text(tab)}
        </Alert>
      ))}
      {closed.length > 0 && (
        <Group gap={6}>
          {closed.map((tab) => (
            <Button key={tab} size="compact-xs" variant="light" color={color(tab)} onClick={() => toggle(tab)} aria-expanded={false} data-testid={`staff-tab-${tab}`}>
              {t(`staff_warnings.tab_${tab}`)}
            </Button>
          ))}
        </Group>
      )}
    </Stack>
  );
}
