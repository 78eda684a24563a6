import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { appRouter, createInnerContext, parseAuthorization, resolveActorCached, type Services } from "@flagship/api";
import type { FastifyRequest } from "fastify";
import { OIDC_COOKIE, readCookie } from "./oidc-cookie.ts";
import { PageAssets } from "./page-assets.ts";

/** The web app's server renderer (apps/web/src/entry-server.tsx, built into dist/.ssr). */
interface Renderer {
  configure(settings: { footerText: string }): void;
  render(request: {
    url: string;
    token: string | null;
    colorScheme: "light" | "dark" | "auto" | null;
    hiddenAnnouncements: string | null;
    call: (path: string, input: unknown) => Promise<unknown>;
  }): Promise<{ html: string | null; state: string; redirect: string | null; modules?: string[] }>;
}

/** The cookies the web app keeps beside local storage for the pages the server draws (lib/session.ts, lib/color-scheme.ts). */
const SESSION_COOKIE = "flagship.session";
const COLOR_SCHEME_COOKIE = "flagship.color-scheme";
const HIDDEN_ANNOUNCEMENTS_COOKIE = "flagship.hidden-announcements";

/** How long a page drawn for visitors is served again to other visitors. */
const SHARED_PAGE_MS = 1_000;
/** The most visitors' pages kept (by address and colour scheme). */
const SHARED_PAGES_KEPT = 200;

export interface DrawnPage {
  /** The whole document. */
  html: string;
  /** Where to send the viewer instead. */
  redirect: string | null;
}

/**
 * Pages drawn on the server: the app's HTML for the address, with the data it shows, inside the
 * built index.html, which the browser then hydrates. A visitor's page (no session cookie) is the
 * same for every visitor, so it is kept for a second and served again; a signed-in player's page
 * is drawn for them alone and never kept.
 */
export class PageRenderer {
  private readonly shared = new Map<string, { at: number; page: Promise<DrawnPage | null> }>();

  private constructor(
    private readonly renderer: Renderer,
    private readonly template: { before: string; after: string },
    private readonly services: Services,
    private readonly assets: PageAssets | null,
  ) {
    // Anything that happens in the event (a solve, staff's changes, an announcement), on this copy
    // or another, may show on a visitor's page: the kept pages go.
    services.events.subscribe(() => this.forgetShared());
  }

  /** Drops the visitors' pages kept (after a write on this copy: its event may come a moment later). */
  forgetShared(): void {
    this.shared.clear();
  }

  /** The renderer in the web build, or null when the build has none (then pages are the static shell). */
  static async load(webRoot: string, indexHtml: string, services: Services, footerText: string): Promise<PageRenderer | null> {
    const entry = path.join(webRoot, ".ssr", "entry-server.js");
    const start = indexHtml.indexOf("<!--boot-->");
    const end = indexHtml.indexOf("<!--/boot-->");
    if (!existsSync(entry) || start === -1 || end === -1) return null;
    const renderer = (await import(pathToFileURL(entry).href)) as Renderer;
    renderer.configure({ footerText });
    return new PageRenderer(renderer, { before: indexHtml.slice(0, start), after: indexHtml.slice(end + "<!--/boot-->".length) }, services, PageAssets.load(webRoot));
  }

  /** Draws the page a GET of `request.url` asks for; null when it cannot be drawn (the static shell serves instead). */
  async page(request: FastifyRequest): Promise<DrawnPage | null> {
    const cookieToken = readCookie(request.headers.cookie, SESSION_COOKIE);
    const token = cookieToken ? safeDecode(cookieToken) : null;
    const scheme = readCookie(request.headers.cookie, COLOR_SCHEME_COOKIE);
    const colorScheme = scheme === "light" || scheme === "dark" || scheme === "auto" ? scheme : null;
    const actor = token ? await resolveActorCached(this.services, parseAuthorization(`Token ${token}`)).catch(() => null) : null;
    // A token the server no longer knows draws the visitor's page (the browser, which still holds
    // it, then draws its own and handles the expired session as it always has).
    if (actor === null) {
      const key = `${colorScheme ?? ""} ${request.url}`;
      const now = Date.now();
      const kept = this.shared.get(key);
      if (kept && now - kept.at < SHARED_PAGE_MS) return kept.page;
      const page = this.draw(request, null, colorScheme, null);
      if (this.shared.size >= SHARED_PAGES_KEPT) this.shared.delete(this.shared.keys().next().value!);
      this.shared.set(key, { at: now, page });
      // A page that failed to draw is not served again.
      void page.catch(() => this.shared.delete(key));
      return page;
    }
    return this.draw(request, token, colorScheme, actor);
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
      const drawn = await this.renderer.render({
        url: request.url,
        token,
        colorScheme,
        // A visitor sees no announcements: their page is the same whatever this says.
        hiddenAnnouncements: token ? readCookie(request.headers.cookie, HIDDEN_ANNOUNCEMENTS_COOKIE) : null,
        call,
      });
      if (drawn.redirect) return { html: "", redirect: drawn.redirect };
      if (drawn.html === null) return null;
      // Functions as replacements: a `$` in the state or the links is text, not a replacement pattern.
      const links = this.assets?.links(drawn.modules ?? []) ?? "";
      const html = `${this.template.before.replace("</head>", () => `${links}</head>`)}${drawn.html}${this.template.after}`.replace(
        "</body>",
        () => `<script type="application/json" id="flagship-ssr">${drawn.state}</script></body>`,
      );
      return { html: colorScheme === "dark" ? html.replace("<html ", '<html data-mantine-color-scheme="dark" ') : html, redirect: null };
    } catch (error) {
      request.log.warn({ err: error, url: request.url }, "server render failed; serving the static shell");
      return null;
    }
  }
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
