import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { appRouter, createInnerContext, parseAuthorization, resolveActorCached, type Services } from "@flagship/api";
import type { FastifyRequest } from "fastify";
import { OIDC_COOKIE, readCookie } from "./oidc-cookie.ts";
import { DrawBudget, LoopLoad, machineCpuTimes } from "./draw-budget.ts";
import { DrawThreads } from "./draw-threads.ts";
import { PageAssets } from "./page-assets.ts";

/** The cookies the web app keeps beside local storage for the pages the server draws (lib/session.ts, lib/color-scheme.ts). */
const SESSION_COOKIE = "flagship.session";
const COLOR_SCHEME_COOKIE = "flagship.color-scheme";
const HIDDEN_ANNOUNCEMENTS_COOKIE = "flagship.hidden-announcements";

/** How long a page drawn for visitors is served again to other visitors. */
const SHARED_PAGE_MS = 1_000;
/** The most visitors' pages kept (by address and colour scheme). */
const SHARED_PAGES_KEPT = 200;

/** What this process's pages were, for the metrics: drawn, served again (a visitors' page kept), or the static shell because the draw budget was spent. */
export const pageStats = { drawn: 0, kept: 0, overBudget: 0 };

export interface DrawnPage {
  /** The whole document. */
  html: string;
  /** Where to send the viewer instead. */
  redirect: string | null;
  /** What drawing it took of the drawing thread (ms), for the budget. */
  drawMs?: number;
}

/**
 * Pages drawn on the server: the app's HTML for the address, with the data it shows, inside the
 * built index.html, which the browser then hydrates. A visitor's page (no session cookie) is the
 * same for every visitor, so it is kept for a second and served again; a signed-in player's page
 * is drawn for them alone and never kept.
 */
export class PageRenderer {
  private readonly shared = new Map<string, { at: number; page: Promise<DrawnPage | null> }>();
  private readonly budget: DrawBudget;
  private readonly load: LoopLoad;

  private constructor(
    private readonly threads: DrawThreads,
    private readonly template: PageTemplate,
    private readonly services: Services,
    private readonly assets: PageAssets | null,
    budgetMs: number,
    machineLoad: boolean,
  ) {
    this.load = new LoopLoad(500, machineLoad ? machineCpuTimes : idleMachine);
    // The budget shrinks as the copy's thread gets busy with the API's calls, or the machine's
    // processors with anything (draws run in other threads but on the same cores): the calls keep
    // their speed, and pages are drawn with what is left.
    this.budget = new DrawBudget(budgetMs, 1_000, () => performance.now(), () => this.load.current());
    // Anything that happens in the event (a solve, staff's changes, an announcement), on this copy
    // or another, may show on a visitor's page: the kept pages go.
    services.events.subscribe(() => this.forgetShared());
  }

  /** Stops the drawing threads. */
  close(): Promise<void> {
    this.load.stop();
    return this.threads.close();
  }

  /** Drops the visitors' pages kept (after a write on this copy: its event may come a moment later). */
  forgetShared(): void {
    this.shared.clear();
  }

  /**
   * The renderer in the web build, drawing in `threads` threads beside the server's (started on the
   * first draw), or null when the build has none (then pages are the static shell).
   */
  static load(webRoot: string, indexHtml: string, services: Services, settings: { footerText: string; budgetMs: number; machineLoad: boolean; threads: number; log: (error: Error) => void }): PageRenderer | null {
    const entry = path.join(webRoot, ".ssr", "entry-server.js");
    const start = indexHtml.indexOf("<!--boot-->");
    const end = indexHtml.indexOf("<!--/boot-->");
    if (!existsSync(entry) || start === -1 || end === -1) return null;
    const threads = new DrawThreads(pathToFileURL(entry).href, { footerText: settings.footerText }, settings.threads, settings.log);
    return new PageRenderer(threads, pageTemplate(indexHtml.slice(0, start), indexHtml.slice(end + "<!--/boot-->".length)), services, PageAssets.load(webRoot), settings.budgetMs, settings.machineLoad);
  }

  /** Draws the page a GET of `request.url` asks for; null when it cannot be drawn (the static shell serves instead). */
  async page(request: FastifyRequest): Promise<DrawnPage | null> {
    const cookieToken = readCookie(request.headers.cookie, SESSION_COOKIE);
    const token = cookieToken ? safeDecode(cookieToken) : null;
    const scheme = readCookie(request.headers.cookie, COLOR_SCHEME_COOKIE);
    const colorScheme = scheme === "light" || scheme === "dark" || scheme === "auto" ? scheme : null;
    const actor = token ? await resolveActorCached(this.services, parseAuthorization(`Token ${token}`)).catch(() => null) : null;
    // The copy's first draw waits for its drawing thread to load the renderer, which is not drawing:
    // the budget counts from there.
    await this.threads.loaded();
    // A token the server no longer knows draws the visitor's page (the browser, which still holds
    // it, then draws its own and handles the expired session as it always has).
    if (actor === null) {
      const key = `${colorScheme ?? ""} ${request.url}`;
      const now = Date.now();
      const kept = this.shared.get(key);
      if (kept && now - kept.at < SHARED_PAGE_MS) {
        pageStats.kept++;
        return kept.page;
      }
      // Past the budget, a visitor is served the page kept last, however old (it is dropped on
      // any event, so it is current), or the static shell.
      if (!this.budget.allows()) {
        if (kept) {
          pageStats.kept++;
          return kept.page;
        }
        pageStats.overBudget++;
        return null;
      }
      const page = this.budget.track(() => this.draw(request, null, colorScheme, null), drawCost);
      if (this.shared.size >= SHARED_PAGES_KEPT) this.shared.delete(this.shared.keys().next().value!);
      this.shared.set(key, { at: now, page });
      // A page that failed to draw is not served again.
      void page.catch(() => this.shared.delete(key));
      return page;
    }
    if (!this.budget.allows()) {
      pageStats.overBudget++;
      return null;
    }
    return this.budget.track(() => this.draw(request, token, colorScheme, actor), drawCost);
  }

  private async draw(request: FastifyRequest, token: string | null, colorScheme: "light" | "dark" | "auto" | null, actor: Awaited<ReturnType<typeof resolveActorCached>>): Promise<DrawnPage | null> {
    const ctx = createInnerContext(this.services, actor, request.ip, readCookie(request.headers.cookie, OIDC_COOKIE));
    const caller = appRouter.createCaller(ctx) as unknown as Record<string, unknown>;
    const call = (procedure: string, input: unknown) => {
      const fn = procedure.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], caller);
      if (typeof fn !== "function") return Promise.reject(new Error(`no query ${procedure}`));
      return (fn as (input: unknown) => Promise<unknown>)(input);
    };
    try {
      const drawn = await this.threads.draw(
        {
          url: request.url,
          token,
          colorScheme,
          // A visitor sees no announcements: their page is the same whatever this says.
          hiddenAnnouncements: token ? readCookie(request.headers.cookie, HIDDEN_ANNOUNCEMENTS_COOKIE) : null,
        },
        call,
      );
      if (drawn.redirect) return { html: "", redirect: drawn.redirect, drawMs: drawn.busyMs };
      if (drawn.html === null) return null;
      pageStats.drawn++;
      // The drawn pieces' styles in the head; their code is loaded with the app's.
      const pieces = this.assets?.assets(drawn.modules ?? []) ?? { styles: "", code: [] };
      const { start } = this.template;
      const head = start
        ? `${pieces.styles}<script type="application/json" id="flagship-code">${jsonForScript({ entry: start.entry, preload: [...start.preload, ...pieces.code] })}</script><script type="module" src="${start.script}"></script>`
        : `${pieces.styles}${pieces.code.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`).join("")}`;
      // Functions as replacements: a `$` in the state or the links is text, not a replacement pattern.
      const html = `${this.template.before.replace("</head>", () => `${head}</head>`)}${drawn.html}${this.template.after}`.replace(
        "</body>",
        () => `<script type="application/json" id="flagship-ssr">${drawn.state}</script></body>`,
      );
      const scheme = drawn.forcedScheme ?? colorScheme;
      return { html: scheme === "dark" ? html.replace("<html ", '<html data-mantine-color-scheme="dark" ') : html, redirect: null, drawMs: drawn.busyMs };
    } catch (error) {
      request.log.warn({ err: error, url: request.url }, "server render failed; serving the static shell");
      return null;
    }
  }
}

/** The machine's processors read as idle (SERVER_RENDERING_MACHINE_LOAD=off): the copy's own thread alone sets the budget. */
const idleMachine = () => ({ busy: 0, total: 1 });

/** What a draw cost the drawing thread, as the thread measured it (a page it left to the browser: unknown). */
const drawCost = (page: DrawnPage | null) => page?.drawMs;

/** The built index.html around a drawn page, and how the page's code is started. */
interface PageTemplate {
  before: string;
  after: string;
  /**
   * The build's start-after-paint script, with the app's entry and the chunks its head preloaded
   * (taken out of the head): the script loads them once the page has painted. Null for a build
   * without it (the head keeps its entry).
   */
  start: { script: string; entry: string; preload: readonly string[] } | null;
}

const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">/g;
const START_AFTER_PAINT = /<meta name="flagship-start-after-paint" content="([^"]+)">/;

/**
 * A drawn page is read before its code arrives. With the build's start-after-paint script, the
 * page names no code in its head but that script, which fetches the rest once the page has been
 * painted: on a slow link, the page's styles, typeface and images have the connection to
 * themselves until then. (The static shell, which draws nothing without its code, keeps its head.)
 */
export function pageTemplate(before: string, after: string): PageTemplate {
  const script = START_AFTER_PAINT.exec(before)?.[1];
  const entry = ENTRY_SCRIPT.exec(before)?.[1];
  if (!script || !entry) return { before, after, start: null };
  const preload = [...before.matchAll(MODULE_PRELOAD)].map((match) => match[1]!);
  return { before: before.replace(ENTRY_SCRIPT, "").replace(MODULE_PRELOAD, ""), after, start: { script, entry, preload } };
}

/** JSON for a data block: no `</script>` (nor `<!--`) can end it early. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
