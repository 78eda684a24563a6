import { useEffect } from "react";
import { useAppData } from "./useAppData.ts";

/** The tab's title for a page heading and the event's name: "Leaderboard · Harbour CTF". */
export function documentTitle(heading: string, eventName: string): string {
  const page = heading.trim().replace(/\s+/g, " ");
  return page && page !== eventName ? `${page} · ${eventName}` : eventName;
}

/**
 * Names the browser tab after the page on screen and the event: the page's h1 (its heading is
 * what every page already has, drawn after its data and chunks arrive, so it is watched rather than
 * set by each route) and the event's name from the settings.
 */
export function DocumentTitle() {
  const { config } = useAppData();
  const eventName = config?.event_name || "Flagship";
  useEffect(() => {
    const update = () => {
      const heading = document.querySelector("main h1") ?? document.querySelector("h1");
      const title = documentTitle(heading?.textContent ?? "", eventName);
      if (document.title !== title) document.title = title;
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [eventName]);
  return null;
}
