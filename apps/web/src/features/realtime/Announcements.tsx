import { Alert, Stack } from "@mantine/core";
import { useLocalStorage } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Markdown } from "../../lib/Markdown.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useToken } from "../../lib/session.ts";

/** Announcements for logged-in users, each shown until closed; a closed one stays hidden on this browser. */
export function Announcements() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const token = useToken();
  const [hidden, setHidden] = useLocalStorage<number[]>({ key: "flagship.hidden-announcements", defaultValue: [] });
  const { data } = useQuery(trpc.announcements.list.queryOptions(undefined, { enabled: token !== null, staleTime: 60_000 }));
  const visible = (data ?? []).filter((a) => !hidden.includes(a.id)).slice(0, 3);
  if (!token || visible.length === 0) return null;
  return (
    <Stack gap="xs" mb="md" aria-label={t("realtime.announcements")} component="section">
      {visible.map((a) => (
        <Alert
          key={a.id}
          title={a.title}
          color="grape"
          withCloseButton
          closeButtonLabel={t("realtime.hide_announcement")}
          onClose={() => setHidden((ids) => [...ids, a.id].slice(-200))}
        >
          <Markdown>{a.body}</Markdown>
        </Alert>
      ))}
    </Stack>
  );
}
