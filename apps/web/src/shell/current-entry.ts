import { useEffect, useState } from "react";

/**
 * The one entry a page belongs to, so exactly one entry is marked wherever the player is: a
 * section's entry for all of its pages (the team forms belong to Team, every challenges page to
 * Challenges), and a list's entry for the pages reached from it (another team's page belongs to
 * Teams, another player's profile to Users). Null for pages outside the sidebar (privacy, 404).
 */
export function currentEntry(pathname: string, me: { id: number; teamId: number | null } | null): string | null {
  const [first, second] = pathname.split("/").filter(Boolean);
  switch (first) {
    case undefined:
      return "/";
    case "campaign":
      return "/campaign";
    case "admin":
      return "/admin";
    case "team":
      if (second === undefined || second === "me" || second === "create" || second === "join" || second === String(me?.teamId)) return "/team/me";
      return "/teams";
    case "profile":
      if (second === undefined || second === "me" || second === String(me?.id)) return "/profile/me";
      return "/users";
    default:
      return `/${first}`;
  }
}

/** A link's aria-current: "page" on the page it leads to, "true" on the other pages of its section. */
export function ariaCurrent(pathname: string, to: string, inSection: boolean): "page" | "true" | undefined {
  if (pathname === to) return "page";
  return inSection ? "true" : undefined;
}

/**
 * The router's own matching for the sidebar's links: its links set aria-current="page" when they
 * match, over ours, and by default they also match on every page below theirs ("All categories" on
 * a category's page). Matched exactly, the router agrees with ariaCurrent.
 */
export const EXACT_MATCH = { exact: true } as const;

/**
 * A submenu's open state: it opens whenever the player arrives in its section, however they got
 * there (a link on the page, a redirect, the first load), so the current page inside is shown;
 * the player may still close it.
 */
export function useSectionOpen(inSection: boolean): [boolean, (opened: boolean) => void] {
  const [opened, setOpened] = useState(inSection);
  useEffect(() => {
    if (inSection) setOpened(true);
  }, [inSection]);
  return [opened, setOpened];
}
