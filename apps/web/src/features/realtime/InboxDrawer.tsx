import { Alert, Badge, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { Markdown } from "../../lib/Markdown.tsx";
import { setInboxOpen } from "./inbox.ts";
import "./texts.ts";

interface AnnouncementView {
  id: number;
  title: string;
  body: string;
  timestamp: string;
}

interface InboxDrawerProps {
  opened: boolean;
  announcements: AnnouncementView[];
  /** Unread when the inbox opened: these carry a "New" badge. */
  fresh: ReadonlySet<number>;
  isPending: boolean;
  isError: boolean;
}

/** The announcements inbox: every announcement, newest first, with its markdown body. */
export function InboxDrawer({ opened, announcements, fresh, isPending, isError }: InboxDrawerProps) {
  const { t } = useTranslation();
  return (
    <Dialog opened={opened} onClose={() => setInboxOpen(false)} position="right" size="md" title={t("inbox.title")} closeLabel={t("inbox.close")}>
      {isPending ? (
        <Group justify="center" py="xl">
          <Loader size="sm" aria-label={t("inbox.title")} />
        </Group>
      ) : isError ? (
        <Alert color="red" variant="light">
          {t("inbox.failed")}
        </Alert>
      ) : announcements.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {t("inbox.empty")}
        </Text>
      ) : (
        <Stack gap="lg" component="ul" p={0} m={0} style={{ listStyle: "none" }} data-testid="announcement-list">
          {announcements.map((a) => (
            <Stack key={a.id} component="li" gap={4} pb="md" style={{ borderBottom: "1px solid var(--mantine-color-default-border)" }}>
              <Group gap="xs" wrap="nowrap" align="flex-start" justify="space-between">
                <Title order={3} size="h5">
                  {a.title}
                </Title>
                {fresh.has(a.id) && (
                  <Badge size="sm" variant="filled" color="red.9" style={{ flexShrink: 0 }}>
                    {t("inbox.new")}
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed" component="time" dateTime={a.timestamp}>
                {new Date(a.timestamp).toLocaleString()}
              </Text>
              <Markdown>{a.body}</Markdown>
            </Stack>
          ))}
        </Stack>
      )}
    </Dialog>
  );
}
