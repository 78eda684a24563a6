import { ActionIcon, Group } from "@mantine/core";
import { IconZoomIn, IconZoomOut, IconZoomReset } from "@tabler/icons-react";
import { useRef, type ReactNode } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { Tip } from "../../lib/Tip.tsx";
import { TransformComponent, TransformWrapper, type ReactZoomPanPinchRef } from "react-zoom-pan-pinch";
/** The zoom bounds, and the step of the zoom buttons. */
const MIN_ZOOM = 0.4;
const MAX_ZOOM = 2.5;
const ZOOM_STEP = 0.25;
/** A press that moves further than this (in CSS pixels) is a pan, not a click. */
const CLICK_SLOP = 4;

/**
 * Pan and zoom around a campaign map that does not fit its box: ctrl + wheel or a trackpad pinch
 * zooms (a plain wheel still scrolls the page), a touch pinch zooms, dragging pans without opening
 * the tile it started on, and the zoom buttons work from the keyboard. A focused tile is panned
 * into view. Its own chunk: only maps larger than their box load it.
 */
export default function CampaignPanZoom({
  children,
  contentWidth,
  height,
  initialScale,
  scale,
  onScale,
}: {
  children: ReactNode;
  /** The map's width, wider than the box when the box is narrower than the map. */
  contentWidth: number;
  /** The box's height: the map's, up to a share of the window. */
  height: number;
  /** The scale it opens at (and goes back to on reset): below 1 for a map wider than its box. */
  initialScale: number;
  scale: number;
  onScale(scale: number): void;
}) {
  const { t } = useTranslation();
  const api = useRef<ReactZoomPanPinchRef | null>(null);
  const pressStart = useRef<{ x: number; y: number } | null>(null);
  const panned = useRef(false);

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
    <TransformWrapper
      ref={api}
      initialScale={initialScale}
      minScale={Math.min(MIN_ZOOM, initialScale)}
      maxScale={MAX_ZOOM}
      limitToBounds
      wheel={{ wheelDisabled: true, step: 0.05 }}
      trackPadPanning={{ disabled: true }}
      doubleClick={{ disabled: true }}
      onTransform={(_, state) => onScale(state.scale)}
    >
      {({ zoomIn, zoomOut, resetTransform }) => (
        <>
          <Group gap={4} className="campaign-zoom" role="group" aria-label={t("challenges.map_controls")}>
            <Tip label={t("challenges.zoom_in")}>
              <ActionIcon variant="default" size="lg" aria-label={t("challenges.zoom_in")} onClick={() => zoomIn(ZOOM_STEP)} disabled={scale >= MAX_ZOOM - 0.001}>
                <IconZoomIn size={18} aria-hidden />
              </ActionIcon>
            </Tip>
            <Tip label={t("challenges.zoom_out")}>
              <ActionIcon variant="default" size="lg" aria-label={t("challenges.zoom_out")} onClick={() => zoomOut(ZOOM_STEP)} disabled={scale <= Math.min(MIN_ZOOM, initialScale) + 0.001}>
                <IconZoomOut size={18} aria-hidden />
              </ActionIcon>
            </Tip>
            <Tip label={t("challenges.zoom_reset")}>
              <ActionIcon variant="default" size="lg" aria-label={t("challenges.zoom_reset")} onClick={() => resetTransform()}>
                <IconZoomReset size={18} aria-hidden />
              </ActionIcon>
            </Tip>
          </Group>
          <TransformComponent
            wrapperClass="campaign-pan"
            wrapperStyle={{ width: "100%", height: height > 0 ? height : "auto", cursor: "grab" }}
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
                if (panned.current) {
                  e.preventDefault();
                  e.stopPropagation();
                }
                panned.current = false;
              },
              onFocusCapture: (e) => {
                if (e.target instanceof HTMLElement) panIntoView(e.target, e.currentTarget);
              },
            }}
          >
            {children}
          </TransformComponent>
        </>
      )}
    </TransformWrapper>
  );
}
