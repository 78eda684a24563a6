import { Anchor, CloseButton, Group, Paper, Text } from "@mantine/core";
import { useLocalStorage, useResizeObserver } from "@mantine/hooks";
import { useTranslation } from "../../lib/i18n.ts";
import { Markdown } from "../../lib/Markdown.tsx";
import { useToken } from "../../lib/session.ts";
import { setInboxOpen, useAnnouncementList, useReadAnnouncements } from "./inbox.ts";
import "./realtime.css";
import "./texts.ts";

/**
 * One compact bar with the latest announcement for logged-in users, until closed: a closed one
 * stays hidden on this browser (and counts as read). The rest are in the header's inbox.
 */
export function Announcements() {
  const { t } = useTranslation();
  const token = useToken();
  const [hidden, setHidden] = useLocalStorage<number[]>({ key: "flagship.hidden-announcements", defaultValue: [], getInitialValueInEffect: false });
  const { data } = useAnnouncementList();
  const { markRead } = useReadAnnouncements();
  const latest = data?.[0];
  // The body is cut after a few lines; when it is, its last line fades out.
  const [boxRef, box] = useResizeObserver<HTMLDivElement>();
  const [contentRef, content] = useResizeObserver<HTMLDivElement>();
  const clipped = content.height > box.height + 1;
  if (!token || !latest || hidden.includes(latest.id)) return null;
  const hide = () => {
    setHidden((ids) => [...ids, latest.id].slice(-200));
    markRead([latest.id]);
  };
  return (
    <Paper component="section" aria-label={t("realtime.announcements")} withBorder radius="md" px="md" py="xs" mb="md" className="announcement-bar" data-testid="announcement-bar">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <div style={{ flex: 1, minWidth: 0 }}>
          <Text fw={700} size="sm">
            {latest.title}
          </Text>
          <div className="announcement-bar-body" ref={boxRef} data-clipped={clipped}>
            <div ref={contentRef}>
              <Markdown>{latest.body}</Markdown>
            </div>
          </div>
          <Anchor component="button" type="button" size="xs" onClick={() => setInboxOpen(true)} underline="always">
            {data.length > 1 ? t("inbox.show_all_count", { count: data.length }) : t("inbox.show_all")}
          </Anchor>
        </div>
        <CloseButton aria-label={t("realtime.hide_announcement")} onClick={hide} size="sm" />
      </Group>
    </Paper>
  );
}
