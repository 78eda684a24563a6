import { useElementSize } from "@mantine/hooks";
import { lazy, Suspense, useState, type ReactNode } from "react";

/** The narrowest the 7-column map gets (7 tiles of 84px, 6 gaps of 18px and 6px of room for focus rings each side, as in challenges.css). */
const FOCUS_ROOM = 6;
const MAP_MIN_WIDTH = 7 * 84 + 6 * 18 + 2 * FOCUS_ROOM;

/** The pan-and-zoom library (a chunk of its own), loaded only for a map larger than its box. */
const CampaignPanZoom = lazy(() => import("./CampaignPanZoom.tsx"));

/**
 * A campaign map in its box. A map that fits is drawn as it is, without controls; one wider than
 * its box (a phone) or taller than most of the window gets pan and zoom (CampaignPanZoom).
 */
export function CampaignViewport({ children }: { children: ReactNode }) {
  const { ref: boxRef, width: boxWidth } = useElementSize();
  const { ref: contentRef, height: contentHeight } = useElementSize();
  const [scale, setScale] = useState(1);
  const maxHeight = typeof window === "undefined" ? 600 : Math.round(window.innerHeight * 0.7);
  const contentWidth = Math.max(boxWidth, MAP_MIN_WIDTH);
  // Nothing is large before the box has been measured, so a small map never asks for the library.
  const measured = boxWidth > 0 && contentHeight > 0;
  const large = measured && (contentWidth > boxWidth + 1 || contentHeight + 2 * FOCUS_ROOM > maxHeight + 1);
  // The measured height leaves out the padding that gives focus rings room.
  const height = Math.min(contentHeight + 2 * FOCUS_ROOM, maxHeight);
  const content = (
    <div ref={contentRef} className="campaign-content" style={{ width: contentWidth }}>
      {children}
    </div>
  );

  return (
    <div ref={boxRef} className="campaign-viewport" data-large={large} data-scale={scale.toFixed(2)} data-testid="campaign-viewport">
      {large ? (
        // Until the library arrives the map scrolls inside its box; the page never gets wider than the window.
        <Suspense fallback={<div className="campaign-plain" style={{ height }}>{content}</div>}>
          <CampaignPanZoom contentWidth={contentWidth} height={height} scale={scale} onScale={setScale}>
            {content}
          </CampaignPanZoom>
        </Suspense>
      ) : (
        <div className="campaign-plain">{content}</div>
      )}
    </div>
  );
}
