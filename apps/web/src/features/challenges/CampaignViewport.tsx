import { useElementSize } from "@mantine/hooks";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { FOCUS_ROOM } from "./campaign-map.ts";

/** The pan-and-zoom library (a chunk of its own), loaded only for a map larger than its box. */
const CampaignPanZoom = lazy(() => import("./CampaignPanZoom.tsx"));

/**
 * A campaign map in its box. A map that fits is drawn as it is, centred, without controls; one
 * wider than its box (a phone) or taller than most of the window gets pan and zoom
 * (CampaignPanZoom), a wide one shown whole at first, zoomed out to the box's width.
 */
export function CampaignViewport({ children, boxWidth, mapWidth }: { children: ReactNode; boxWidth: number; mapWidth: number }) {
  const { ref: contentRef, height: contentHeight } = useElementSize();
  const [scale, setScale] = useState<number | null>(null);
  const maxHeight = typeof window === "undefined" ? 600 : Math.round(window.innerHeight * 0.7);
  const contentWidth = Math.max(boxWidth, mapWidth);
  // Nothing is large before the box has been measured, so a small map never asks for the library.
  const measured = boxWidth > 0 && contentHeight > 0;
  const wide = contentWidth > boxWidth + 1;
  const large = measured && (wide || contentHeight + 2 * FOCUS_ROOM > maxHeight + 1);
  // A map wider than its box opens zoomed out to show its whole width.
  const fitScale = measured && wide ? boxWidth / contentWidth : 1;
  // The measured height leaves out the padding that gives focus rings room.
  const height = Math.min((contentHeight + 2 * FOCUS_ROOM) * fitScale, maxHeight);
  const content = (
    <div ref={contentRef} className="campaign-content" style={{ width: contentWidth }}>
      {children}
    </div>
  );

  return (
    <div className="campaign-viewport" data-large={large} data-scale={(scale ?? fitScale).toFixed(2)} data-testid="campaign-viewport">
      {large ? (
        // Until the library arrives the map scrolls inside its box; the page never gets wider than the window.
        <Suspense fallback={<div className="campaign-plain" style={{ height }}>{content}</div>}>
          <CampaignPanZoom contentWidth={contentWidth} height={height} initialScale={fitScale} scale={scale ?? fitScale} onScale={setScale}>
            {content}
          </CampaignPanZoom>
        </Suspense>
      ) : (
        <div className="campaign-plain">{content}</div>
      )}
    </div>
  );
}
