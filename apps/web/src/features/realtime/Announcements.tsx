import { Anchor, CloseButton, Group, Paper, Text } from "@mantine/core";
import { useLocalStorage, useResizeObserver } from "@mantine/hooks";
import { useRouterState } from "@tanstack/react-router";
import { useContext, useEffect, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { Markdown } from "../../lib/Markdown.tsx";
import { useToken } from "../../lib/session.ts";
import { setInboxOpen, useAnnouncementList, useReadAnnouncements } from "./inbox.ts";
import "./realtime.css";
import "./texts.ts";
import { HIDDEN_KEY, ServerHiddenAnnouncements, writeHiddenCookie } from "./hidden-announcements.ts";

/**
 * One compact bar with the latest announcement for logged-in users, until closed: a closed one
 * stays hidden on this browser (and counts as read). The rest are in the header's inbox.
 *
 * The bar keeps one height whatever it says, and takes its place only when a page is drawn: one
 * that arrives while a page without the bar is on screen is a toast and a count on the bell, and
 * joins the bar on the next page, so the page being read never moves down under the reader.
 */
export function Announcements() {
  const { t } = useTranslation();
  const token = useToken();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // The bars closed on this browser, in its storage and (the latest) in a cookie, so that the server
  // draws the page with or without the bar as the browser will.
  const serverHidden = useContext(ServerHiddenAnnouncements);
  const [hidden, setHidden] = useLocalStorage<number[]>({ key: HIDDEN_KEY, defaultValue: serverHidden ?? [], getInitialValueInEffect: false });
  const { data, isFetched } = useAnnouncementList();
  const { markRead } = useReadAnnouncements();
  const latest = data?.[0];
  const candidate = token && latest && !hidden.includes(latest.id) ? latest : null;
  // Whether the page on screen was drawn with the bar: a new page gives it its place back.
  const [place, setPlace] = useState({ path: pathname, held: true });
  if (place.path !== pathname) setPlace({ path: pathname, held: true });
  const held = place.path === pathname ? place.held : true;
  // A page drawn (or left) without the bar keeps it so, until the next page.
  useEffect(() => {
    if (isFetched && candidate === null) setPlace((p) => (p.held && p.path === pathname ? { ...p, held: false } : p));
  }, [isFetched, candidate, pathname]);
  // The body is cut after a line; when it is, its end fades out.
  const [boxRef, box] = useResizeObserver<HTMLDivElement>();
  const [contentRef, content] = useResizeObserver<HTMLDivElement>();
  const clipped = content.height > box.height + 1;
  if (!candidate || !held || !data) return null;
  const hide = () => {
    setHidden((ids) => {
      const next = [...ids, candidate.id].slice(-200);
      writeHiddenCookie(next);
      return next;
    });
    markRead([candidate.id]);
  };
  return (
    <Paper component="section" aria-label={t("realtime.announcements")} withBorder radius="md" px="md" py={6} className="announcement-bar" data-testid="announcement-bar">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <div style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" justify="space-between" wrap="nowrap">
            <Text fw={700} size="sm" truncate="end">
              {candidate.title}
            </Text>
            <Anchor component="button" type="button" size="xs" onClick={() => setInboxOpen(true)} underline="always" style={{ flexShrink: 0 }}>
              {data.length > 1 ? t("inbox.show_all_count", { count: data.length }) : t("inbox.show_all")}
            </Anchor>
          </Group>
          <div className="announcement-bar-body" ref={boxRef} data-clipped={clipped}>
            <div ref={contentRef}>
              <Markdown>{candidate.body}</Markdown>
            </div>
          </div>
        </div>
        <CloseButton aria-label={t("realtime.hide_announcement")} onClick={hide} size="sm" />
      </Group>
    </Paper>
  );
}
