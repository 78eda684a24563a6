import { ActionIcon, Indicator } from "@mantine/core";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { deferred } from "../../lib/deferred.tsx";
import { useToken } from "../../lib/session.ts";
import { setInboxOpen, useAnnouncementList, useInboxOpen, useReadAnnouncements } from "./inbox.ts";
import "@mantine/core/styles/Indicator.css";
import "./texts.ts";
import { useHydrated } from "../../lib/render-clock.ts";

// The drawer loads the first time the inbox opens.
const InboxDrawer = deferred("features/realtime/InboxDrawer", () => import("./InboxDrawer.tsx").then((m) => m.InboxDrawer), null);

function BellIcon() {
  return (
    <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden focusable="false">
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

/**
 * The header's announcements bell: its name says how many are unread (the count also shows on
 * it), and it opens the inbox, which lists every announcement and marks them all read.
 */
export function AnnouncementsBell() {
  const { t } = useTranslation();
  const token = useToken();
  const list = useAnnouncementList();
  const { read, markRead } = useReadAnnouncements();
  // What this browser has read is in its storage, which the server does not see: counted once the page is the browser's own.
  const hydrated = useHydrated();
  const opened = useInboxOpen();
  // The ids unread when the inbox opened (or that arrived while it is open) keep a "New" badge
  // while it stays open; opening it reads them all.
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set());
  const announcements = useMemo(() => list.data ?? [], [list.data]);
  const unreadIds = useMemo(() => announcements.filter((a) => !read.has(a.id)).map((a) => a.id), [announcements, read]);
  useEffect(() => {
    if (!opened || unreadIds.length === 0) return;
    setFresh((current) => new Set([...current, ...unreadIds]));
    markRead(unreadIds);
  }, [opened, unreadIds, markRead]);
  useEffect(() => {
    if (!opened) setFresh(new Set());
  }, [opened]);
  const [everOpened, setEverOpened] = useState(false);
  useEffect(() => {
    if (opened) setEverOpened(true);
  }, [opened]);
  if (!token) return null;
  const unread = hydrated ? unreadIds.length : 0;
  const label = unread === 0 ? t("inbox.bell") : t("inbox.bell_unread", { count: unread });

  return (
    <>
      {/* A native title rather than a Tooltip: the floating-position library stays out of every page's first load. */}
      <Indicator label={<span aria-hidden>{unread > 99 ? "99+" : unread}</span>} disabled={unread === 0} size={18} offset={4} color="red.9" data-testid="announcements-unread">
        <ActionIcon variant="default" size="lg" aria-label={label} title={label} aria-haspopup="dialog" onClick={() => setInboxOpen(true)} data-testid="announcements-bell">
          <BellIcon />
        </ActionIcon>
      </Indicator>
      {(opened || everOpened) && <InboxDrawer opened={opened} announcements={announcements} fresh={fresh} isPending={list.isPending} isError={list.isError} />}
    </>
  );
}
