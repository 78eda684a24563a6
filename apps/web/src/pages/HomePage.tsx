import { Stack } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { Navigate } from "@tanstack/react-router";
import { defaultHome, HomeContent } from "../features/pages/HomeContent.tsx";
import { useTranslation } from "../lib/i18n.ts";
import { useTRPC } from "../lib/trpc.ts";
import { LoadingScreen } from "../shell/LoadingScreen.tsx";
import { useAppData } from "../shell/useAppData.ts";

/**
 * The event's home page for visitors: the page staff wrote at `/` (Admin → Pages), or until then a
 * default built from the event's settings. Signed-in players go straight to the challenges.
 */
export function HomePage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { config, me } = useAppData();
  const home = useQuery(trpc.pages.home.queryOptions(undefined, { staleTime: 60_000, enabled: !me }));
  if (me) return <Navigate to="/campaign" replace />;
  if (home.isPending && !home.isError) return <LoadingScreen />;
  const event = config ?? {};
  return (
    <Stack maw={960} mx="auto" py="lg" component="article">
      <HomeContent content={home.data?.page?.content ?? defaultHome(t, event)} event={event} categories={home.data?.categories ?? []} />
    </Stack>
  );
}
