// The server's renderer: draws a page of the app to HTML with the data it shows, in the server's
// own process. The server imports this module from the build (dist/.ssr) and calls `render` for
// each page request it draws; the browser then hydrates that HTML (main.tsx).
import "./lib/zod-jitless.ts";
import "./lib/i18n.ts";
import "./plugins/index.ts";
import type { AppRouter as ApiRouter } from "@flagship/api";
import { dehydrate, type Query, QueryCache, QueryClient, type QueryKey } from "@tanstack/react-query";
import { createMemoryHistory } from "@tanstack/react-router";
import { createTRPCClient, TRPCClientError, type TRPCLink } from "@trpc/client";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { observable } from "@trpc/server/observable";
import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import superjson from "superjson";
import { App } from "./app.tsx";
import { preloadMarkdown } from "./lib/Markdown.tsx";
import "./lib/echarts/server-draw.ts";
import { zoneSignature, ServerRenderClock } from "./lib/render-clock.ts";
import { parseHiddenCookie, ServerHiddenAnnouncements } from "./features/realtime/hidden-announcements.ts";
import { runtime, type RuntimeSettings } from "./lib/runtime.ts";
import { ServerSessionContext } from "./lib/session.ts";
import { type SsrNotes, SsrNotesContext, type SsrState } from "./lib/ssr-state.ts";
import { type ColorSchemeChoice, serverColorSchemeManager } from "./lib/color-scheme.ts";
import { createAppRouter } from "./router.tsx";

/** Calls one of the API's queries in the server's process, for the page's viewer. */
export type QueryCaller = (path: string, input: unknown) => Promise<unknown>;

export interface RenderRequest {
  /** The page's path and query. */
  url: string;
  /** The viewer's token (the session cookie), or null for a visitor. */
  token: string | null;
  /** The viewer's chosen colour scheme (its cookie), if any. */
  colorScheme: ColorSchemeChoice | null;
  /** The announcement bars the viewer closed (their cookie), as it is. */
  hiddenAnnouncements: string | null;
  call: QueryCaller;
}

export interface RenderResult {
  /** The app's HTML, for the page's root element; null for a page the browser draws. */
  html: string | null;
  /** The data the page was drawn with, for the browser's query cache: a JSON text. */
  state: string;
  /** Where the page sends its viewer instead (a redirect), if anywhere. */
  redirect: string | null;
  /** The deferred pieces the page shows, by module (their code and styles go in the page's head). */
  modules?: string[];
  /** The scheme the page is drawn in whatever the viewer chose (the projector board's dark), if any. */
  forcedScheme?: "dark";
}

/**
 * The routes the server draws: the public and player pages. The rest (staff pages, account
 * settings, the one-time links of mails, the first-run setup) are drawn in the browser, from the
 * static shell. A player's own profile and team (/profile, /team) send them on to /profile/me and
 * /team/me, drawn like any other. Addresses no route claims are staff's content pages, which are drawn too.
 */
const SERVER_DRAWN = new Set([
  "/",
  "/login",
  "/register",
  "/register/email",
  "/campaign",
  "/campaign/$tabId",
  "/campaign/$tabId/$chalId",
  "/leaderboard",
  "/largeLeaderboard",
  "/profile/$user",
  "/users",
  "/team/$team",
  "/teams",
]);

/** How many times a page is drawn at most while it finds the data it shows (each draw may reveal queries that wait on others). */
const MAX_PASSES = 4;
/** A draw that takes longer than this gives up: the page is then drawn in the browser. */
const DRAW_TIMEOUT_MS = 5_000;

/** Settings the server has for every page (the footer text). */
export function configure(settings: Pick<RuntimeSettings, "footerText">): void {
  runtime.footerText = settings.footerText;
}

/** A tRPC link that runs queries through the server's in-process caller (no HTTP); anything else is refused. */
function callerLink(call: QueryCaller): TRPCLink<ApiRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        if (op.type !== "query") {
          observer.error(TRPCClientError.from(new Error("The server draws pages with queries only.")));
          return;
        }
        call(op.path, op.input).then(
          (data) => {
            observer.next({ result: { type: "data", data } });
            observer.complete();
          },
          (error: unknown) => observer.error(TRPCClientError.from(error instanceof Error ? error : new Error(String(error)))),
        );
      });
}

function draw(node: React.ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = "";
    const sink = new PassThrough();
    sink.setEncoding("utf8");
    sink.on("data", (chunk: string) => (html += chunk));
    sink.on("end", () => resolve(html));
    const stream = renderToPipeableStream(node, {
      // Everything is drawn before the page leaves: its data is in the cache by the last draw, and
      // the pieces loaded on demand (its page, the markdown renderer) resolve in this process.
      onAllReady: () => stream.pipe(sink),
      // Every part inline, in place: no part is sent later to be swapped in by a script (the CSP has none).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onShellError: reject,
      onError: (error) => {
        // A part that fails is drawn by the browser instead (React marks its boundary); the rest stands.
        if (!(error instanceof Error && error.message.includes("client-only"))) console.warn("server render:", error);
      },
    });
    setTimeout(() => {
      stream.abort(new Error("server render timed out"));
      reject(new Error("server render timed out"));
    }, DRAW_TIMEOUT_MS).unref();
  });
}

/**
 * The query cache of one page's draws, noting the queries the last draw read: only those go to the
 * browser (and are remembered for the address), never one read ahead that the page did not show.
 */
class DrawnQueryCache extends QueryCache {
  readonly read = new Set<string>();
  constructor() {
    super();
    const build = this.build.bind(this);
    this.build = ((...args: Parameters<QueryCache["build"]>) => {
      const query = build(...args);
      this.read.add(query.queryHash);
      return query;
    }) as QueryCache["build"];
  }
}

/** The queries each address was last drawn with, per kind of viewer (the most recent addresses kept). */
const learned = new Map<string, QueryKey[]>();
const LEARNED_KEPT = 1000;

function learn(key: string, queryKeys: QueryKey[]): void {
  learned.delete(key);
  if (learned.size >= LEARNED_KEPT) learned.delete(learned.keys().next().value!);
  learned.set(key, queryKeys);
}

/** A tRPC query's key: the procedure's path, then its input and type. */
function isTrpcQueryKey(queryKey: QueryKey): boolean {
  return Array.isArray(queryKey[0]) && queryKey[0].every((part) => typeof part === "string") && (queryKey[1] as { type?: string } | undefined)?.type === "query";
}

/** A query the draw asked for that has not run: not disabled, never fetched. */
function waiting(query: Query, tried: Set<Query>): boolean {
  if (tried.has(query) || query.state.status !== "pending" || query.state.fetchStatus !== "idle") return false;
  const enabled = (query.options as { enabled?: unknown }).enabled;
  if (enabled === false) return false;
  if (typeof enabled === "function") return (enabled as (q: Query) => boolean)(query) !== false;
  return true;
}

export async function render(request: RenderRequest): Promise<RenderResult> {
  const queryCache = new DrawnQueryCache();
  const queryClient = new QueryClient({ queryCache, defaultOptions: { queries: { retry: false, staleTime: 10_000, gcTime: Infinity } } });
  const trpcClient = createTRPCClient<ApiRouter>({ links: [callerLink(request.call)] });
  const router = createAppRouter(createMemoryHistory({ initialEntries: [request.url] }));
  await router.load();
  // A route that sends its viewer elsewhere (a redirect in its beforeLoad) is answered as a redirect.
  const result = (router as unknown as { _serverResult?: { type: string; redirect?: { options?: { href?: string }; headers?: Headers } } })._serverResult;
  if (result?.type === "redirect") {
    const location = result.redirect?.headers?.get("Location") ?? result.redirect?.options?.href ?? "/";
    return { html: "", state: "", redirect: location };
  }
  const leaf = router.state.matches.at(-1);
  if (!leaf || (leaf.routeId !== "__root__" && !SERVER_DRAWN.has(leaf.routeId))) return { html: null, state: "", redirect: null };

  const notes: SsrNotes = { deferred: new Set() };
  const clock = { now: Date.now() };
  const node = (
    <ServerSessionContext.Provider value={{ token: request.token }}>
      <SsrNotesContext.Provider value={notes}>
        <ServerRenderClock.Provider value={clock}>
          <ServerHiddenAnnouncements.Provider value={parseHiddenCookie(request.hiddenAnnouncements)}>
            <App router={router} queryClient={queryClient} trpcClient={trpcClient} colorSchemeManager={serverColorSchemeManager(request.colorScheme)} />
          </ServerHiddenAnnouncements.Provider>
        </ServerRenderClock.Provider>
      </SsrNotesContext.Provider>
    </ServerSessionContext.Provider>
  );
  // What the shell around every page reads (the event's settings, the countdown, the sidebar's
  // pages, and for a player their account, team and announcements) is read before the first draw,
  // so that draw already finds the page's own queries: one draw fewer for most pages.
  const trpc = createTRPCOptionsProxy<ApiRouter>({ client: trpcClient, queryClient });
  await Promise.all(
    [
      trpc.config.list.queryOptions(),
      trpc.stats.countdown.queryOptions(),
      trpc.pages.nav.queryOptions(),
      ...(request.token === null ? [] : [trpc.auth.me.queryOptions(), trpc.announcements.list.queryOptions()]),
    ].map((options) => queryClient.prefetchQuery(options as Parameters<QueryClient["prefetchQuery"]>[0])),
  );
  const me = request.token === null ? undefined : (queryClient.getQueryData(trpc.auth.me.queryKey()) as { teamId: number | null } | undefined);
  if (me && me.teamId !== null) await queryClient.prefetchQuery(trpc.teams.self.queryOptions() as Parameters<QueryClient["prefetchQuery"]>[0]);
  // The page's own queries as they were the last time this address was drawn for this kind of
  // viewer, read at once: the first draw is then usually the last.
  const learnedKey = `${request.token === null ? "visitor" : "player"} ${request.url}`;
  await Promise.all(
    (learned.get(learnedKey) ?? []).map((queryKey) => {
      if (queryClient.getQueryCache().find({ queryKey, exact: true })) return undefined;
      const [path, options] = queryKey as [string[], { input?: unknown } | undefined];
      return queryClient.prefetchQuery({ queryKey, queryFn: () => request.call(path.join("."), options?.input), retry: false });
    }),
  );
  // Markdown is drawn by the loaded renderer from the first draw on (a draw before it loads would
  // wrap it in a suspense); the hydrating browser keeps the HTML it draws (lib/Markdown.tsx).
  await preloadMarkdown();
  const tried = new Set<Query>(queryClient.getQueryCache().getAll());
  // Notes are of the last draw only.
  const drawNoted = async () => {
    notes.deferred.clear();
    queryCache.read.clear();
    return draw(node);
  };
  let html = await drawNoted();
  for (let pass = 1; pass < MAX_PASSES; pass++) {
    const queries = queryClient.getQueryCache().getAll().filter((query) => waiting(query, tried));
    if (queries.length === 0) break;
    for (const query of queries) tried.add(query);
    await Promise.all(queries.map((query) => query.fetch().catch(() => undefined)));
    html = await drawNoted();
  }
  // A query that failed here is left to the browser: drawn as loading, as the browser first draws it.
  const failed = queryClient.getQueryCache().getAll().filter((query) => query.state.status === "error");
  if (failed.length > 0) {
    for (const query of failed) query.reset();
    html = await drawNoted();
  }
  const shown = (query: Query) => query.state.status === "success" && queryCache.read.has(query.queryHash);
  learn(
    learnedKey,
    queryCache
      .getAll()
      .filter((query) => shown(query) && isTrpcQueryKey(query.queryKey))
      .map((query) => query.queryKey),
  );
  const state: SsrState = {
    queries: superjson.serialize(dehydrate(queryClient, { shouldDehydrateQuery: shown })),
    signedIn: request.token !== null,
    now: clock.now,
    deferred: [...notes.deferred],
    zone: zoneSignature(clock.now),
  };
  return {
    html,
    state: JSON.stringify(state).replace(/</g, "\\u003c"),
    redirect: null,
    modules: state.deferred,
    // The projector board is dark whatever the viewer chose (LargeLeaderboardPage): so is its first paint.
    ...(leaf.routeId === "/largeLeaderboard" && { forcedScheme: "dark" as const }),
  };
}
