import { ActionIcon, Group, Tooltip } from "@mantine/core";
import { useElementSize } from "@mantine/hooks";
import { IconZoomIn, IconZoomOut, IconZoomReset } from "@tabler/icons-react";
import { useRef, useState, type ReactNode } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { TransformComponent, TransformWrapper, type ReactZoomPanPinchRef } from "react-zoom-pan-pinch";

/** The zoom bounds of a large campaign map, and the step of the zoom buttons. */
export const MIN_ZOOM = 0.4;
export const MAX_ZOOM = 2.5;
const ZOOM_STEP = 0.25;
/** A press that moves further than this (in CSS pixels) is a pan, not a click. */
const CLICK_SLOP = 4;
/** The narrowest the 7-column map gets (7 tiles of 84px, 6 gaps of 18px and 6px of room for focus rings each side, as in challenges.css). */
const FOCUS_ROOM = 6;
const MAP_MIN_WIDTH = 7 * 84 + 6 * 18 + 2 * FOCUS_ROOM;

/**
 * Pan and zoom around a campaign map that does not fit its box: ctrl + wheel or a trackpad pinch
 * zooms (a plain wheel still scrolls the page), a touch pinch zooms, dragging pans without opening
 * the tile it started on, and the zoom buttons work from the keyboard. A focused tile is panned
 * into view. Maps that fit are drawn as they are, without controls.
 */
export function CampaignViewport({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { ref: boxRef, width: boxWidth } = useElementSize();
  const { ref: contentRef, height: contentHeight } = useElementSize();
  const api = useRef<ReactZoomPanPinchRef | null>(null);
  const pressStart = useRef<{ x: number; y: number } | null>(null);
  const panned = useRef(false);
  const [scale, setScale] = useState(1);
  const maxHeight = typeof window === "undefined" ? 600 : Math.round(window.innerHeight * 0.7);
  const contentWidth = Math.max(boxWidth, MAP_MIN_WIDTH);
  const large = contentWidth > boxWidth + 1 || contentHeight + 2 * FOCUS_ROOM > maxHeight + 1;
  // The measured height leaves out the padding that gives focus rings room.
  const height = Math.min(contentHeight + 2 * FOCUS_ROOM, maxHeight);

  const panIntoView = (target: HTMLElement, wrapper: HTMLElement) => {
    // Focus scrolls even an overflow-hidden box; undo that, the transform does the moving.
    wrapper.scrollLeft = 0;
    wrapper.scrollTop = 0;
    const box = wrapper.getBoundingClientRect();
    const rect = target.getBoundingClientRect();
    const inside = rect.left >= box.left && rect.right <= box.right && rect.top >= box.top && rect.bottom <= box.bottom;
    if (!inside && api.current) void api.current.zoomToElement(target, api.current.state.scale, 0);
  };

  return (
    <div ref={boxRef} className="campaign-viewport" data-large={large} data-scale={scale.toFixed(2)} data-testid="campaign-viewport">
      <TransformWrapper
        ref={api}
        disabled={!large}
        minScale={MIN_ZOOM}
        maxScale={MAX_ZOOM}
        limitToBounds
        wheel={{ wheelDisabled: true, step: 0.05 }}
        trackPadPanning={{ disabled: true }}
        doubleClick={{ disabled: true }}
        onTransform={(_, state) => setScale(state.scale)}
      >
        {({ zoomIn, zoomOut, resetTransform }) => (
          <>
            {large && (
              <Group gap={4} className="campaign-zoom" role="group" aria-label={t("challenges.map_controls")}>
                <Tooltip label={t("challenges.zoom_in")}>
                  <ActionIcon variant="default" size="lg" aria-label={t("challenges.zoom_in")} onClick={() => zoomIn(ZOOM_STEP)} disabled={scale >= MAX_ZOOM - 0.001}>
                    <IconZoomIn size={18} aria-hidden />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t("challenges.zoom_out")}>
                  <ActionIcon variant="default" size="lg" aria-label={t("challenges.zoom_out")} onClick={() => zoomOut(ZOOM_STEP)} disabled={scale <= MIN_ZOOM + 0.001}>
                    <IconZoomOut size={18} aria-hidden />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t("challenges.zoom_reset")}>
                  <ActionIcon variant="default" size="lg" aria-label={t("challenges.zoom_reset")} onClick={() => resetTransform()}>
                    <IconZoomReset size={18} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              </Group>
            )}
            <TransformComponent
              wrapperClass="campaign-pan"
              wrapperStyle={{ width: "100%", height: large && height > 0 ? height : "auto", cursor: large ? "grab" : undefined }}
              contentStyle={{ width: contentWidth }}
              wrapperProps={{
                onPointerDownCapture: (e) => {
                  pressStart.current = { x: e.clientX, y: e.clientY };
                  panned.current = false;
                },
                onPointerMoveCapture: (e) => {
                  const start = pressStart.current;
                  if (start && Math.hypot(e.clientX - start.x, e.clientY - start.y) > CLICK_SLOP) panned.current = true;
                },
                onPointerUpCapture: () => {
                  pressStart.current = null;
                },
                onClickCapture: (e) => {
                  // The click that ends a drag is not a tile click.
                  if (large && panned.current) {
                    e.preventDefault();
                    e.stopPropagation();
                  }
                  panned.current = false;
                },
                onFocusCapture: (e) => {
                  if (large && e.target instanceof HTMLElement) panIntoView(e.target, e.currentTarget);
                },
              }}
            >
              <div ref={contentRef} className="campaign-content">
                {children}
              </div>
            </TransformComponent>
          </>
        )}
      </TransformWrapper>
    </div>
  );
}
