import { type RefObject, useEffect } from "react";

interface Span {
  top: number;
  bottom: number;
}

/**
 * Where a scrolling panel must scroll to show an entry, as the "nearest" block of scrollIntoView:
 * nowhere when the entry is whole in view, else just far enough to bring it to the nearer edge
 * (its top when it is taller than the panel).
 */
export function nearestScrollTop(panel: Span, entry: Span, scrollTop: number): number {
  // Rounded away from the entry's inside: a panel scrolls by whole pixels, and an entry of a
  // fractional height left a fraction of a pixel below the fold otherwise.
  if (entry.top < panel.top || entry.bottom - entry.top > panel.bottom - panel.top) return Math.floor(scrollTop + entry.top - panel.top);
  if (entry.bottom > panel.bottom) return Math.ceil(scrollTop + entry.bottom - panel.bottom);
  return scrollTop;
}

/**
 * The panel's current entry: the last one marked (a submenu's page after its section's button),
 * of those drawn (a closed submenu's pages are not).
 */
function currentEntryElement(panel: HTMLElement): HTMLElement | undefined {
  return [...panel.querySelectorAll<HTMLElement>("[aria-current], [data-active]")].filter((el) => el.getClientRects().length > 0).at(-1);
}

const TAKEOVER = ["wheel", "touchstart", "pointerdown", "keydown"] as const;

/**
 * Keeps the sidebar's current entry in view of its scrolling panel on every route change, so a
 * staff page deep in the console's list, opened directly, is not marked below the fold. It is
 * scrolled directly rather than with the entry's scrollIntoView, which could scroll the page too.
 */
export function useCurrentEntryInView(panel: RefObject<HTMLElement | null>, pathname: string): void {
  useEffect(() => {
    const element = panel.current;
    if (!element) return;
    const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    const reveal = () => {
      const entry = currentEntryElement(element);
      if (!entry) return;
      const top = nearestScrollTop(element.getBoundingClientRect(), entry.getBoundingClientRect(), element.scrollTop);
      if (top !== element.scrollTop) element.scrollTo({ top, behavior: reducedMotion ? "instant" : "smooth" });
    };
    // The entry may come later than the route: the console's entries wait for the session, and a
    // submenu opens over a moment. So the panel follows its contents as they grow, until the
    // player takes the panel over (scrolls it, clicks or types in it).
    const observer = new ResizeObserver(reveal);
    for (const child of element.children) observer.observe(child);
    const stop = () => {
      observer.disconnect();
      for (const type of TAKEOVER) element.removeEventListener(type, stop);
    };
    for (const type of TAKEOVER) element.addEventListener(type, stop, { passive: true });
    return stop;
  }, [panel, pathname]);
}
