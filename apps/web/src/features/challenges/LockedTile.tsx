import { Text, VisuallyHidden } from "@mantine/core";
import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { shiftInto, visibleBox } from "../../lib/keep-inside.ts";
import { LockIcon } from "./icons.tsx";
import type { AnyChallengeView } from "./types.ts";
import { useUnlockText } from "./UnlockHint.tsx";
import "./unlock.css";

/** The space between a tile and its panel, as in unlock.css. */
const PANEL_GAP = 8;
type Side = "bottom" | "top" | "right" | "left";

/**
 * Places a tile's open panel: below the tile, else above, right or left, on the first side where
 * it fits inside the visible part of the map (a small map's box clips what sticks out of it), then
 * moved along the tile's edge to stay inside. The map may be zoomed: rectangles are measured on
 * screen, the shift is set in the panel's own pixels.
 */
function placePanel(tile: HTMLElement, panel: HTMLElement): void {
  const room = visibleBox(tile);
  const t = tile.getBoundingClientRect();
  const { width, height } = panel.getBoundingClientRect();
  const scale = panel.offsetWidth > 0 ? width / panel.offsetWidth : 1;
  const gap = PANEL_GAP * scale;
  const fits: Record<Side, boolean> = {
    bottom: t.bottom + gap + height <= room.bottom,
    top: t.top - gap - height >= room.top,
    right: t.right + gap + width <= room.right,
    left: t.left - gap - width >= room.left,
  };
  const side = (["bottom", "top", "right", "left"] as const).find((s) => fits[s]) ?? "bottom";
  const centre = (t.left + t.right) / 2;
  const shift = side === "bottom" || side === "top" ? shiftInto(centre - width / 2, centre + width / 2, room.left, room.right) : shiftInto(t.top, t.top + height, room.top, room.bottom);
  panel.dataset.side = side;
  panel.style.setProperty("--panel-shift", `${shift / scale}px`);
}

/**
 * A locked campaign tile: pressing it says what unlocks it (its name says so too), in a panel
 * beside the tile that Escape or a click elsewhere closes. A disclosure drawn with CSS rather than
 * a popover, so the campaign pages carry no positioning library.
 */
export function LockedTile({ challenge, dimmed }: { challenge: AnyChallengeView; dimmed: boolean }) {
  const { t } = useTranslation();
  const label = useUnlockText(challenge.unlock_requirements, "locked_tile_by");
  const hint = useUnlockText(challenge.unlock_requirements);
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onClick = (e: MouseEvent) => {
      const target = e.target as Node;
      if (buttonRef.current?.contains(target) || panelRef.current?.contains(target)) return;
      setOpen(false);
      // Focus goes back to the tile, unless the click has just given it to another control.
      if (!document.activeElement || document.activeElement === document.body) buttonRef.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    // Capture, so a handler that stops a click (the map's, at the end of a drag) still closes it.
    document.addEventListener("click", onClick, true);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick, true);
    };
  }, [open]);

  useLayoutEffect(() => {
    const panel = panelRef.current;
    const tile = buttonRef.current;
    if (!open || !panel || !tile) return;
    placePanel(tile, panel);
  }, [open]);

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="campaign-tile"
        data-state="locked"
        data-dimmed={dimmed}
        aria-label={label}
        aria-expanded={open}
        aria-controls={panelId}
        data-testid="locked-tile"
        onClick={() => setOpen((was) => !was)}
      >
        <LockIcon size={24} />
        <Text size="xs">{t("challenges.locked")}</Text>
      </button>
      {open && (
        <div ref={panelRef} id={panelId} className="unlock-panel">
          <Text size="sm" data-testid="unlock-hint">
            {hint}
          </Text>
        </div>
      )}
    </>
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
