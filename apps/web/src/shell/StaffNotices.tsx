import { Alert, Button, Group, Paper, Text } from "@mantine/core";
import { STAFF_WARNING_LEVEL, type StaffWarning, staffWarnings } from "@flagship/shared";
import { useLocalStorage } from "@mantine/hooks";
import "../features/admin/staff-warnings-texts.ts";
import { useTranslation } from "../lib/i18n.ts";
import "./notices-texts.ts";
import { useAppData } from "./useAppData.ts";
import { setViewAsPlayer, useViewAsPlayer } from "./viewAsPlayer.ts";

/** The notices only staff get: the player preview's, then the warnings. */
export function StaffNotices() {
  return (
    <>
      <PreviewNotice />
      <StaffWarnings />
    </>
  );
}

/** While staff preview the event as a player: said, with the way back. */
function PreviewNotice() {
  const { t } = useTranslation();
  const preview = useViewAsPlayer();
  if (!preview) return null;
  return (
    <Paper role="status" withBorder radius="md" px="md" py={6} bg="var(--mantine-color-grape-light)" data-testid="preview-notice">
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm">{t("notices.previewing")}</Text>
        <Button size="compact-sm" variant="white" color="dark" onClick={() => setViewAsPlayer(false)} style={{ flexShrink: 0 }}>
          {t("notices.view_as_staff")}
        </Button>
      </Group>
    </Paper>
  );
}

/**
 * The staff warnings that apply (switches off while the event runs, maintenance, locked
 * registration...): each a one-line banner that folds into a small tab when hidden. Staff only.
 */
function StaffWarnings() {
  const { t } = useTranslation();
  const { config, me } = useAppData();
  const preview = useViewAsPlayer();
  const [folded, setFolded] = useLocalStorage<StaffWarning[]>({ key: "flagship.staff-warnings-folded", defaultValue: [] });
  if (!me?.staffPowers || !config || preview) return null;
  const active = staffWarnings(config as Parameters<typeof staffWarnings>[0], Date.now() / 1000);
  if (active.length === 0) return null;
  const toggle = (tab: StaffWarning) => setFolded((list) => (list.includes(tab) ? list.filter((x) => x !== tab) : [...list, tab]));
  const color = (tab: StaffWarning) => (STAFF_WARNING_LEVEL[tab] === "danger" ? "red" : "yellow");
  const open = active.filter((tab) => !folded.includes(tab));
  const closed = active.filter((tab) => folded.includes(tab));
  return (
    <section aria-label={t("staff_warnings.label")} data-testid="staff-warnings" className="notice-stack">
      {open.map((tab) => (
        <Alert
          key={tab}
          color={color(tab)}
          variant="light"
          py={6}
          withCloseButton
          closeButtonLabel={t("staff_warnings.hide", { warning: t(`staff_warnings.${tab}`) })}
          onClose={() => toggle(tab)}
          data-testid={`staff-warning-${tab}`}
        >
          {t(`staff_warnings.${tab}`)}
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
    </section>
  );
}
