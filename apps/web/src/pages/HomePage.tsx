import { Stack } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { defaultHome, HomeContent } from "../features/pages/HomeContent.tsx";
import { useTranslation } from "../lib/i18n.ts";
import { useTRPC } from "../lib/trpc.ts";
import { LoadingScreen } from "../shell/LoadingScreen.tsx";
import { useAppData } from "../shell/useAppData.ts";

/**
 * The event's home page: the page staff wrote at `/` (Admin → Pages), or until then a default built
 * from the event's settings. Signed-in players read it too (the rules, the schedule), its actions
 * leading them on to the challenges or their team.
 */
export function HomePage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { config, me } = useAppData();
  const home = useQuery(trpc.pages.home.queryOptions(undefined, { staleTime: 60_000 }));
  if (home.isPending && !home.isError) return <LoadingScreen />;
  const event = config ?? {};
  return (
    <Stack maw={960} mx="auto" py="lg" component="article">
      <HomeContent
        content={home.data?.page?.content ?? defaultHome(t, event)}
        event={event}
        categories={home.data?.categories ?? []}
        reader={me ? { signedIn: true, hasTeam: me.teamId !== null } : { signedIn: false }}
      />
    </Stack>
  );
}
