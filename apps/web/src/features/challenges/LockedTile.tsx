import { Popover, Text, VisuallyHidden } from "@mantine/core";
import { useTranslation } from "../../lib/i18n.ts";
import { LockIcon } from "./icons.tsx";
import type { AnyChallengeView } from "./types.ts";
import { useUnlockText } from "./UnlockHint.tsx";
import "./unlock.css";

/** A locked campaign tile: pressing it says what unlocks it (its name says so too). */
export function LockedTile({ challenge, dimmed }: { challenge: AnyChallengeView; dimmed: boolean }) {
  const { t } = useTranslation();
  const label = useUnlockText(challenge.unlock_requirements, "locked_tile_by");
  const hint = useUnlockText(challenge.unlock_requirements);
  return (
    <Popover width={240} position="bottom" withArrow shadow="md">
      <Popover.Target>
        <button type="button" className="campaign-tile" data-state="locked" data-dimmed={dimmed} aria-label={label} data-testid="locked-tile">
          <LockIcon size={24} />
          <Text size="xs">{t("challenges.locked")}</Text>
        </button>
      </Popover.Target>
      <Popover.Dropdown>
        <Text size="sm" data-testid="unlock-hint">
          {hint}
        </Text>
      </Popover.Dropdown>
    </Popover>
  );
}

/** A campaign tile's maintenance flag: a warning sign in its corner (the tile's name says the word). */
export function MaintenanceMark() {
  const { t } = useTranslation();
  return (
    <span className="tile-maintenance" data-testid="tile-maintenance" title={t("challenges.maintenance_badge")}>
      <span aria-hidden>⚠</span>
      <VisuallyHidden>{t("challenges.maintenance_badge")}</VisuallyHidden>
    </span>
  );
}
