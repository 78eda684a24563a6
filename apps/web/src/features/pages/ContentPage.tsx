import { Alert, Stack, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useRouterState } from "@tanstack/react-router";
import { useTranslation } from "../../lib/i18n.ts";
import { Markdown } from "../../lib/Markdown.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";
import { NotFoundPage } from "../../shell/NotFound.tsx";
import { pluginPage } from "../../plugins/screens.tsx";

/** Pages the product always has; each says it is not set until staff write it. */
const DEFAULT_PAGES: Record<string, string> = { conduct: "pages.conduct", privacy: "pages.privacy", terms: "pages.terms" };

/** Pages are stored as given (`/rules` or `rules`); both serve at /rules. */
const pagePath = (url: string) => url.replace(/^\/+|\/+$/g, "");

/**
 * Any URL no route claims: a staff-defined page when one has this URL, a default page's 'not set'
 * notice, or 'Page not found'.
 */
export function ContentPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const url = pagePath(pathname);
  const { data, isPending } = useQuery(trpc.pages.list.queryOptions(undefined, { staleTime: 60_000 }));
  const Plugin = pluginPage(url)?.component;
  if (Plugin) return <Plugin />;
  if (isPending) return <LoadingScreen />;
  const page = data?.find((p) => pagePath(p.url) === url);
  if (page) {
    return (
      <Stack maw={860} mx="auto" component="article">
        <Title order={1}>{page.title}</Title>
        <Markdown>{page.content}</Markdown>
      </Stack>
    );
  }
  const fallback = DEFAULT_PAGES[url];
  if (fallback) {
    return (
      <Stack maw={860} mx="auto">
        <Title order={1}>{t(fallback)}</Title>
        <Alert color="gray">{t("pages.not_set")}</Alert>
      </Stack>
    );
  }
  return <NotFoundPage />;
}
