import { useLocalStorage } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useMemo, useSyncExternalStore } from "react";
import { useToken } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";

/** Announcements for the signed-in user, newest first (refetched when event 5 arrives). */
export function useAnnouncementList() {
  const trpc = useTRPC();
  const token = useToken();
  return useQuery(trpc.announcements.list.queryOptions(undefined, { enabled: token !== null, staleTime: 60_000 }));
}

/** The most ids kept per user; the server lists at most 200 announcements. */
const KEEP = 400;

/**
 * Which announcements the signed-in user has read, kept per user on this browser (across
 * reloads), as `{ [userId]: ids }`. Opening the inbox reads them all; hiding the bar reads its one.
 */
export function useReadAnnouncements() {
  const { me } = useAppData();
  const [all, setAll] = useLocalStorage<Record<string, number[]>>({ key: "flagship.read-announcements", defaultValue: {}, getInitialValueInEffect: false });
  const userKey = me ? String(me.id) : null;
  const read = useMemo(() => new Set(userKey ? (all[userKey] ?? []) : []), [all, userKey]);
  const markRead = useCallback(
    (ids: number[]) => {
      if (!userKey) return;
      setAll((current) => {
        const mine = current[userKey] ?? [];
        const added = ids.filter((id) => !mine.includes(id));
        return added.length === 0 ? current : { ...current, [userKey]: [...mine, ...added].slice(-KEEP) };
      });
    },
    [setAll, userKey],
  );
  return { read, markRead };
}

// Whether the inbox drawer is open: the header's bell and the bar's "All announcements" both open it.
let inboxOpen = false;
/** What had focus when the inbox opened (the bell, or the bar's link): it gets focus back on close. */
let opener: HTMLElement | null = null;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function setInboxOpen(open: boolean): void {
  if (open === inboxOpen) return;
  inboxOpen = open;
  if (open) opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  for (const listener of listeners) listener();
  if (!open && opener?.isConnected) {
    const target = opener;
    // After the drawer has let go of the focus trap.
    setTimeout(() => target.focus(), 0);
  }
}

export function useInboxOpen(): boolean {
  return useSyncExternalStore(subscribe, () => inboxOpen, () => false);
}
