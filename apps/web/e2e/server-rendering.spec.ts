import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { expectAccessible, screenshots } from "./support/axe.ts";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { seedUser, type SeededUser, unique } from "./support/db.ts";
import { commits, redrawnIn, resetRedrawn, watchCommits } from "./support/react-commits.ts";

/**
 * Pages drawn on the server: each public and player route's main content is in the server's HTML
 * (read here with JavaScript off), and the browser hydrates that HTML without a mismatch.
 */

test.describe.configure({ mode: "serial" });
// A server of its own on the journeys' event, with server rendering on (the journeys' server draws in the browser).
// PORT + 5, as SSR_PORT in playwright.config.ts.
test.use({ baseURL: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8181) + 5}` });

interface World {
  staff: SeededUser;
  player: SeededUser;
  teamId: number;
  teamName: string;
  category: { id: number; name: string };
  challenge: { id: number; name: string };
  /** One the player's team has not solved. */
  open: { id: number; name: string };
}

let world: World;

test.beforeAll(async ({ request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam(1, { name: unique("Drawn ") });
  const category = await seedCategory(request, staff, { name: unique("Served "), contained_type: "jeopardy" });
  const challenge = await seedChallenge(request, staff, {
    category: category.id,
    name: unique("Rendered "),
    score: 150,
    description: "Find the **server-drawn words** in this page.",
    flag_metadata: { flag: "flag{drawn}" },
  });
  const open = await seedChallenge(request, staff, { category: category.id, name: unique("Open "), score: 50, flag_metadata: { flag: "flag{open}" } });
  const player = team.members[0]!;
  const solved = await request.post("/api/v2/challenges/submit_flag/", { headers: { authorization: `Token ${player.token}` }, data: { challenge: challenge.id, flag: "flag{drawn}" } });
  expect(((await solved.json()) as { d: { correct: boolean } }).d.correct).toBe(true);
  world = { staff, player, teamId: team.id, teamName: team.name, category, challenge, open };
  // The server's first draws compile its renderer as they run: each route is drawn once before the
  // journeys time anything.
  for (const route of Object.values(ROUTES)) {
    await request.get(route.path(), route.signedIn ? { headers: { cookie: `flagship.session=${player.token}` } } : {});
  }
});

/** A browser context signed in as the app signs in: the token in local storage and the session cookie beside it. */
async function signedIn(browser: Browser, baseURL: string, user: SeededUser, options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, ...options });
  await context.addCookies([{ name: "flagship.session", value: user.token, url: baseURL }]);
  await context.addInitScript((token) => window.localStorage.setItem("flagship.token", token), user.token);
  return context;
}

/**
 * Waits until the page's code has started hydrating it. A click before that is lost (the server's
 * HTML has no handlers); one while React hydrates is replayed once it has hydrated its target.
 */
async function hydrating(page: Page): Promise<void> {
  // The code is fetched once the page has painted, then started in steps: seconds on a busy machine.
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.start), { timeout: 30_000 }).toBe("hydrated");
}

interface RouteCheck {
  path: () => string;
  signedIn: boolean;
  /** What the page's main content shows, in the server's HTML. */
  shows: (page: Page) => Promise<void>;
}

const ROUTES: Record<string, RouteCheck> = {
  home: { path: () => "/", signedIn: false, shows: (page) => expect(page.getByTestId("home-content")).toBeVisible() },
  login: {
    path: () => "/login",
    signedIn: false,
    shows: async (page) => {
      await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
      await expect(page.getByLabel("Username")).toBeVisible();
    },
  },
  "sign-up": { path: () => "/register", signedIn: false, shows: (page) => expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible() },
  categories: { path: () => "/campaign", signedIn: true, shows: (page) => expect(page.getByText(world.category.name).first()).toBeVisible() },
  challenges: { path: () => `/campaign/${world.category.id}`, signedIn: true, shows: (page) => expect(page.getByText(world.challenge.name).first()).toBeVisible() },
  challenge: {
    path: () => `/campaign/${world.category.id}/${world.challenge.id}`,
    signedIn: true,
    // The description is drawn as markdown by the server, not shown as its source.
    shows: (page) => expect(page.locator("strong", { hasText: "server-drawn words" })).toBeVisible(),
  },
  // The boards and lists show their first page (other journeys' teams may fill it): its rows are in the HTML.
  leaderboard: { path: () => "/leaderboard", signedIn: false, shows: (page) => expect(page.getByRole("table", { name: "Teams" }).getByRole("row").nth(1)).toBeVisible() },
  profile: { path: () => `/profile/${world.player.id}`, signedIn: true, shows: (page) => expect(page.getByRole("heading", { name: world.player.username })).toBeVisible() },
  team: { path: () => `/team/${world.teamId}`, signedIn: true, shows: (page) => expect(page.getByRole("heading", { name: world.teamName })).toBeVisible() },
  // A player's own pages: /profile and /team send them on to /profile/me and /team/me, drawn as those.
  "own profile": { path: () => "/profile", signedIn: true, shows: (page) => expect(page.getByRole("heading", { name: world.player.username })).toBeVisible() },
  "own team": { path: () => "/team", signedIn: true, shows: (page) => expect(page.getByRole("heading", { name: world.teamName })).toBeVisible() },
  // The projector board, dark whatever the visitor chose (this one chose nothing: light elsewhere).
  projector: {
    path: () => "/largeLeaderboard",
    signedIn: false,
    shows: async (page) => {
      await expect(page.getByRole("table", { name: "Leaderboard" }).getByRole("row").first()).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
    },
  },
  teams: { path: () => "/teams", signedIn: false, shows: (page) => expect(page.getByRole("table").getByRole("row").nth(1)).toBeVisible() },
  "content page": { path: () => "/privacy", signedIn: false, shows: (page) => expect(page.getByRole("heading", { name: "Privacy Policy" })).toBeVisible() },
};

test("with JavaScript off, every public and player route's main content is in the server's HTML", async ({ browser, baseURL }) => {
  const visitor = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const player = await signedIn(browser, baseURL!, world.player, { javaScriptEnabled: false });
  try {
    for (const [name, route] of Object.entries(ROUTES)) {
      const page = await (route.signedIn ? player : visitor).newPage();
      await test.step(name, async () => {
        const response = await page.goto(route.path());
        expect(response?.status(), name).toBe(200);
        // The static shell is gone: this is the page itself.
        await expect(page.locator(".boot-shell")).toHaveCount(0);
        await route.shows(page);
      });
      await page.close();
    }
    // The page's own styles are in its head (from the build's manifest), not added once its code
    // has run (the page would move as they arrive). Its code, with the app's, is listed for the
    // script that loads it once the page has painted: the head names no other script.
    const board = await (await visitor.request.get("/leaderboard")).text();
    const head = board.slice(0, board.indexOf("</head>"));
    expect(head).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/LeaderboardPage-[\w-]+\.css">/);
    expect([...head.matchAll(/<script type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1])).toEqual([expect.stringMatching(/^\/assets\/start-after-paint-[\w-]+\.js$/)]);
    expect(head).not.toContain('rel="modulepreload"');
    const code = JSON.parse(/<script type="application\/json" id="flagship-code">(.*?)<\/script>/.exec(head)![1]!) as { entry: string; preload: string[] };
    expect(code.entry).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    expect(code.preload).toContainEqual(expect.stringMatching(/^\/assets\/LeaderboardPage-[\w-]+\.js$/));
  } finally {
    await visitor.close();
    await player.close();
  }
});

/** What React says when hydration fails or the server's HTML and the first render differ (in full or, in production builds, by error number). */
const HYDRATION_PROBLEM = /hydrat|did(?:n't| not) match|server rendered|Minified React error #(?:418|419|421|422|423|425)/i;

test("the browser hydrates each route's server HTML without a mismatch, and the page then works", async ({ browser, baseURL }) => {
  // Fourteen routes, each checked with axe and photographed at two widths: minutes on a busy machine.
  test.setTimeout(400_000);
  const visitor = await browser.newContext({ baseURL });
  const player = await signedIn(browser, baseURL!, world.player);
  try {
    for (const [name, route] of Object.entries(ROUTES)) {
      const page = await (route.signedIn ? player : visitor).newPage();
      const problems: string[] = [];
      page.on("console", (message) => {
        if ((message.type() === "error" || message.type() === "warning") && HYDRATION_PROBLEM.test(message.text())) problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));
      await test.step(name, async () => {
        await page.goto(route.path());
        await route.shows(page);
        // React has taken over the server's elements; a mismatch would have been reported below.
        await expect.poll(() => page.evaluate(() => Object.keys(document.querySelector("#root > :not(link, style)") ?? {}).some((key) => key.startsWith("__reactFiber")))).toBe(true);
        await page.waitForLoadState("load");
        // The page was painted before its code was asked for.
        const [painted, codeAsked] = await page.evaluate(() => [
          performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Infinity,
          performance.getEntriesByType("resource").find((entry) => /\/assets\/index-[\w-]+\.js$/.test(entry.name))?.startTime ?? -1,
        ]);
        expect(codeAsked, name).toBeGreaterThan(painted);
        // Late pieces (the page's own chunk) hydrate as they arrive.
        await page.waitForTimeout(500);
        expect(problems, name).toEqual([]);
        // The hydrated page shows what the server drew (the projector still dark, its effects run).
        await route.shows(page);
        // The page as drawn and hydrated: axe, and screenshots at desktop and phone width.
        await expectAccessible(page);
        await screenshots(page, `server-drawn-${name.replace(/ /g, "-")}`);
      });
      await page.close();
    }

    // A hydrated challenge page takes a flag: its form's handlers are live.
    const page = await player.newPage();
    await page.goto(`/campaign/${world.category.id}/${world.open.id}`);
    await expect(page.getByRole("heading", { name: world.open.name })).toBeVisible();
    await page.getByTestId("flag-input").fill("flag{not-this}");
    await hydrating(page);
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByTestId("flag-incorrect")).toContainText("Incorrect flag");
  } finally {
    await visitor.close();
    await player.close();
  }
});

test("once hydrated, the page is not drawn again as its clock ticks: only what shows the time is", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  await watchCommits(context);
  try {
    const page = await context.newPage();
    await page.goto("/leaderboard");
    await hydrating(page);
    await expect.poll(() => commits(page)).toBeGreaterThan(0);
    // The page's last parts hydrate as their code runs: then what is drawn from here on is counted.
    await page.waitForTimeout(1000);
    await resetRedrawn(page);
    // Three ticks of the clock the countdown and the event's moment read. The page's own elements
    // (its heading and tabs; not the board, which other journeys' solves may redraw) stay as drawn.
    await page.waitForTimeout(3200);
    expect(await redrawnIn(page, "main h1")).toBe(0);
    expect(await redrawnIn(page, "main [role=tablist]")).toBe(0);
    // The watch sees what is drawn again: choosing the users' board redraws the tabs.
    await page.getByRole("tab", { name: "Users" }).click();
    await expect(page.getByRole("tab", { name: "Users" })).toHaveAttribute("aria-selected", "true");
    expect(await redrawnIn(page, "main [role=tablist]")).toBeGreaterThan(0);
  } finally {
    await context.close();
  }
});

test("hydrating a page draws it once: its form or heading is not drawn again as it hydrates, and no element's id changes from the server's", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  await watchCommits(context);
  // Every change of an element's id after the page has loaded.
  await context.addInitScript(`
    window.__idChanges = [];
    document.addEventListener("DOMContentLoaded", () => new MutationObserver((records) => {
      for (const r of records) window.__idChanges.push(r.oldValue + " -> " + r.target.getAttribute("id"));
    }).observe(document.documentElement, { subtree: true, attributes: true, attributeFilter: ["id"], attributeOldValue: true }));
  `);
  try {
    const page = await context.newPage();
    // (The leaderboard's tabs are drawn once more as their panel mounts: the tab then names the panel it controls.)
    for (const [path, part] of [
      ["/login", "main form"],
      ["/leaderboard", "main h1"],
    ] as const) {
      await page.goto(path);
      await hydrating(page);
      await expect.poll(() => commits(page)).toBeGreaterThan(0);
      await page.waitForTimeout(1000);
      expect(await redrawnIn(page, part), path).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __idChanges: string[] }).__idChanges), path).toEqual([]);
    }
    // The ids still tie each field to its label.
    await page.goto("/login");
    await hydrating(page);
    await page.getByLabel("Username").fill("someone");
    await expect(page.getByRole("textbox", { name: "Username" })).toHaveValue("someone");
  } finally {
    await context.close();
  }
});

test("markdown the server drew is kept as drawn, without the markdown renderer, until its text changes", async ({ browser, baseURL, request }) => {
  const player = await signedIn(browser, baseURL!, world.player);
  try {
    const page = await player.newPage();
    const renderer: string[] = [];
    page.on("request", (r) => {
      if (/\/assets\/MarkdownRenderer-[\w-]+\.js$/.test(r.url())) renderer.push(r.url());
    });
    const problems: string[] = [];
    page.on("console", (message) => {
      if ((message.type() === "error" || message.type() === "warning") && HYDRATION_PROBLEM.test(message.text())) problems.push(message.text());
    });
    await page.goto(`/campaign/${world.category.id}/${world.challenge.id}`);
    await hydrating(page);
    await page.waitForLoadState("networkidle");
    // The description is the server's HTML, hydrated: its bold words are there, no parser was fetched.
    await expect(page.locator(".fs-markdown strong")).toHaveText("server-drawn words");
    expect(renderer).toEqual([]);
    expect(problems).toEqual([]);

    // Staff change the text: the page hears of it, loads the renderer and draws the new text.
    const edited = await request.patch(`/api/v2/challenges/${world.challenge.id}/`, {
      headers: { authorization: `Token ${world.staff.token}` },
      data: { description: "Now the *browser-drawn words* show." },
    });
    expect(edited.ok()).toBe(true);
    await expect(page.locator(".fs-markdown em")).toHaveText("browser-drawn words", { timeout: 15_000 });
    await expect(page.locator(".fs-markdown strong")).toHaveCount(0);
    expect(renderer.length).toBeGreaterThan(0);
  } finally {
    await player.close();
    await request.patch(`/api/v2/challenges/${world.challenge.id}/`, {
      headers: { authorization: `Token ${world.staff.token}` },
      data: { description: "Find the **server-drawn words** in this page." },
    });
  }
});

test("what a player types and sends before the page has hydrated is kept and sent: a flag with Enter, a sign-in with its button", async ({ browser, baseURL }) => {
  // The page's code is held back until the player has typed and sent: the server's HTML and its
  // small start script (which holds what the player does this early) are all there is.
  const held = async (context: BrowserContext) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await context.route(/\/assets\/(?!start-after-paint-).*\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    return release;
  };
  const startScript = (page: Page) => page.waitForFunction(() => document.querySelector('link[rel="modulepreload"]') !== null);
  const player = await signedIn(browser, baseURL!, world.player);
  const visitor = await browser.newContext({ baseURL });
  try {
    const page = await player.newPage();
    const release = await held(player);
    await page.goto(`/campaign/${world.category.id}/${world.open.id}`, { waitUntil: "commit" });
    await page.getByTestId("flag-input").fill("flag{early}");
    await startScript(page);
    await page.getByTestId("flag-input").press("Enter");
    expect(await page.evaluate(() => document.documentElement.dataset.start)).toBeUndefined();
    release();
    // Done again once hydrated, with the flag given back: the answer shows, the page never reloaded.
    await expect(page.getByTestId("flag-incorrect")).toContainText("Incorrect flag");
    await expect(page.getByTestId("flag-input")).toHaveValue("flag{early}");
    expect(new URL(page.url()).search).toBe("");

    const login = await visitor.newPage();
    const releaseLogin = await held(visitor);
    await login.goto("/login", { waitUntil: "commit" });
    await login.getByLabel("Username or email").fill(world.player.username);
    await login.getByLabel("Password", { exact: true }).fill(world.player.password);
    await startScript(login);
    await login.getByRole("button", { name: "Log in", exact: true }).click();
    expect(await login.evaluate(() => document.documentElement.dataset.start)).toBeUndefined();
    releaseLogin();
    await expect(login.getByTestId("header-account")).toContainText(world.player.username);
  } finally {
    await player.close();
    await visitor.close();
  }
});

test("the projector board drawn on the server hydrates on a phone as drawn, then takes the phone's layout, dark throughout", async ({ browser, baseURL }) => {
  // The server cannot know the screen: it draws the wide board, which a phone hydrates as it is
  // (no mismatch) before its own layout.
  const phone = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  try {
    const page = await phone.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if ((message.type() === "error" || message.type() === "warning") && HYDRATION_PROBLEM.test(message.text())) problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto("/largeLeaderboard");
    await expect(page.locator(".boot-shell")).toHaveCount(0);
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
    await hydrating(page);
    await expect(page.locator("main.projector")).toHaveAttribute("data-phone", "true");
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
    expect(problems).toEqual([]);
  } finally {
    await phone.close();
  }
});

test("the leaderboard's graph drawn by the server is kept on a phone without the chart library until tapped; a wide screen and a reader in another time zone get it drawn by the browser", async ({ browser, baseURL }) => {
  // The server's time zone (it runs on this machine, with this environment), in which it draws the graph's time axis.
  const serverZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const otherZone = serverZone === "Asia/Kolkata" ? "America/Lima" : "Asia/Kolkata";
  const graph = (page: Page) => page.getByRole("img", { name: "Score over time of the top ten" });
  /** Watches a page for the chart library's code (the pieces a chart loads, and echarts' core). */
  const chartCode = (page: Page) => {
    const asked: string[] = [];
    page.on("request", (r) => {
      if (/\/assets\/(?:pieces|core|line)-[\w-]+\.js$/.test(r.url())) asked.push(r.url());
    });
    return asked;
  };
  const open = async (options: { width: number; timezoneId: string; javaScriptEnabled?: boolean }) => {
    const context = await browser.newContext({ baseURL, viewport: { width: options.width, height: 844 }, timezoneId: options.timezoneId, javaScriptEnabled: options.javaScriptEnabled ?? true });
    const page = await context.newPage();
    const asked = chartCode(page);
    const problems: string[] = [];
    page.on("console", (message) => {
      if ((message.type() === "error" || message.type() === "warning") && HYDRATION_PROBLEM.test(message.text())) problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto("/leaderboard");
    return { context, page, asked, problems };
  };

  /** Hydrated, the page still shows the server's drawing, has fetched no chart code, and reported no mismatch. */
  const keepsTheDrawing = async (visit: Awaited<ReturnType<typeof open>>) => {
    await hydrating(visit.page);
    await visit.page.waitForLoadState("networkidle");
    await expect(graph(visit.page).locator(".fs-chart-drawn svg")).toBeVisible();
    expect(visit.asked).toEqual([]);
    expect(visit.problems).toEqual([]);
  };

  // With JavaScript off a phone shows the graph as the server drew it.
  const plain = await open({ width: 390, timezoneId: serverZone, javaScriptEnabled: false });
  await expect(graph(plain.page).locator(".fs-chart-drawn svg")).toBeVisible();
  await expect(graph(plain.page).locator(".fs-chart-skeleton")).toBeHidden();
  await plain.context.close();

  // Hydrated on a phone in the server's zone: the drawing stays, and no chart code is fetched ...
  const phone = await open({ width: 390, timezoneId: serverZone });
  try {
    await keepsTheDrawing(phone);
    await expectAccessible(phone.page);
    await graph(phone.page).screenshot({ path: test.info().outputPath("graph-drawn-by-the-server-phone.png") });
    // ... until the reader taps the graph (for its tooltip): the browser then draws it.
    await graph(phone.page).click();
    await expect(graph(phone.page).locator(".fs-chart-drawn")).toHaveCount(0);
    await expect(graph(phone.page).locator("svg")).toBeVisible();
    expect(phone.asked.length).toBeGreaterThan(0);
    await graph(phone.page).screenshot({ path: test.info().outputPath("graph-drawn-by-the-browser-phone.png") });
  } finally {
    await phone.context.close();
  }

  // A phone in a zone of another name that reads every time as the server's does (UTC's other names,
  // India's old one): the drawing is kept too (zones are compared by how they read times).
  const alike = ({ UTC: "Africa/Abidjan", "Etc/UTC": "Africa/Abidjan", "Asia/Kolkata": "Asia/Calcutta", "Europe/London": "Europe/Jersey" } as Record<string, string>)[serverZone];
  expect(alike, `a zone reading times as ${serverZone} does`).toBeDefined();
  const alikePhone = await open({ width: 390, timezoneId: alike! });
  try {
    await keepsTheDrawing(alikePhone);
  } finally {
    await alikePhone.context.close();
  }

  // A wide screen (the phone-wide drawing is not shown) and a phone in another zone (the server's axis
  // would read in its zone): the browser draws the graph at once.
  for (const options of [
    { width: 1280, timezoneId: serverZone },
    { width: 390, timezoneId: otherZone },
  ]) {
    const visit = await open(options);
    try {
      await hydrating(visit.page);
      await expect(graph(visit.page).locator(".fs-chart-drawn")).toHaveCount(0);
      await expect(graph(visit.page).locator("svg")).toBeVisible();
      expect(visit.asked.length, options.timezoneId).toBeGreaterThan(0);
      expect(visit.problems).toEqual([]);
    } finally {
      await visit.context.close();
    }
  }
});

test("a browser whose session cookie is missing or stale draws the page itself, signed in, with no mismatch", async ({ browser, baseURL }) => {
  // Local storage holds the token but no cookie came with the page (a session from before the
  // cookie existed): the server drew the visitor's page; the browser draws the player's.
  const context = await browser.newContext({ baseURL });
  await context.addInitScript((token) => window.localStorage.setItem("flagship.token", token), world.player.token);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  await page.goto(ROUTES.challenge!.path());
  await ROUTES.challenge!.shows(page);
  expect(problems).toEqual([]);
  // The cookie now says the same as local storage: the next page is drawn for the player by the server.
  expect((await context.cookies()).find((c) => c.name === "flagship.session")?.value).toBe(world.player.token);
  const html = await (await page.request.get(ROUTES.challenge!.path())).text();
  expect(html).toContain("server-drawn words");
  await context.close();
});

test("a burst of page loads is drawn up to the copy's budget; past it, the static shell, which the browser draws", async () => {
  test.setTimeout(120_000);
  // A copy of the server of its own, on the journeys' event, with a budget of 100 ms a second (the
  // journeys' server-drawn server has all its time, so that they are never past it by chance).
  const port = Number(process.env.E2E_PORT ?? 8181) + 6;
  const base = `http://127.0.0.1:${port}`;
  const root = path.resolve(import.meta.dirname, "../../..");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "flagship-budget-"));
  const copy = spawn(process.execPath, ["apps/server/dist/main.js"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: `postgresql://flagship:flagship@127.0.0.1:${readFileSync(path.join(process.env.E2E_DATA_DIR!, "postgres.port"), "utf8").trim()}/flagship`,
      DATA_DIR: dataDir,
      SERVER_RENDERING: "on",
      SERVER_RENDERING_BUDGET_MS: "100",
      // The budget alone, not the machine's load (the other journeys share its processors).
      SERVER_RENDERING_MACHINE_LOAD: "off",
      THROTTLE: "off",
      WORKERS: "0",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    await expect.poll(() => fetch(`${base}/api/v2/stats/version/`).then((r) => r.ok, () => false), { timeout: 60_000 }).toBe(true);
    const page = `/campaign/${world.category.id}`;
    const load = async () => {
      const res = await fetch(`${base}${page}`, { headers: { cookie: `flagship.session=${world.player.token}` } });
      expect(res.status).toBe(200);
      return (await res.text()).includes('id="flagship-ssr"');
    };
    // Its first draws compile the renderer: once drawn, the budget has room again a second later.
    await expect.poll(load, { timeout: 30_000, intervals: [1_500] }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const loads = await Promise.all(Array.from({ length: 20 }, load));
    expect(loads.filter(Boolean).length, "drawn").toBeGreaterThan(0);
    expect(loads.filter((drawn) => !drawn).length, "the static shell").toBeGreaterThan(0);
    // A moment later the budget has room again.
    await expect.poll(load, { timeout: 10_000, intervals: [1_500] }).toBe(true);
    // (The static shell drawn by the browser, signed in, is the journey of a stale cookie above.)
  } finally {
    const exited = new Promise((resolve) => copy.once("exit", resolve));
    copy.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a page drawn for one player is never served to another, nor to a visitor", async ({ request }) => {
  // The challenge list names the signed-in player in its header (a visitor is asked to log in).
  const other = (await seedTeam(1, { name: unique("Other ") })).members[0]!;
  const page = (token: string | null) =>
    request.get("/campaign", { headers: token ? { cookie: `flagship.session=${encodeURIComponent(token)}` } : {} }).then(async (response) => {
      expect(response.status()).toBe(200);
      expect(response.headers()["cache-control"]).toBe("private, no-cache");
      expect(response.headers()["vary"]).toMatch(/cookie/i);
      return response.text();
    });
  // Each in turn, and at once: the server's kept pages are visitors' pages only.
  for (const html of [await page(world.player.token), ...(await Promise.all([page(world.player.token), page(world.player.token)]))]) {
    expect(html).toContain(world.player.username);
    expect(html).not.toContain(other.username);
  }
  const [mine, theirs, visitor] = await Promise.all([page(world.player.token), page(other.token), page(null)]);
  expect(mine).toContain(world.player.username);
  expect(theirs).toContain(other.username);
  expect(theirs).not.toContain(world.player.username);
  for (const html of [visitor, await page(null)]) {
    expect(html).not.toContain(world.player.username);
    expect(html).not.toContain(other.username);
    // The visitor's page carries no account's data in its state either.
    expect(html).toContain('"signedIn":false');
  }
  // A token the server does not know draws the visitor's page.
  expect(await page("0".repeat(64))).toContain('"signedIn":false');

  // The cookie draws pages only: the API answers a call that carries nothing else as from nobody.
  const cookie = { cookie: `flagship.session=${encodeURIComponent(other.token)}` };
  const self = await request.get("/api/v2/member/self/", { headers: cookie });
  expect(self.status()).toBeGreaterThanOrEqual(401);
  expect(await self.text()).not.toContain(other.username);
  const me = await request.get("/trpc/auth.me", { headers: cookie });
  expect(await me.text()).not.toContain(other.username);
  // Its player signed out (the token revoked): the next page is the visitor's.
  expect((await request.post("/api/v2/auth/logout/", { headers: { authorization: `Token ${other.token}` } })).ok()).toBe(true);
  expect(await page(other.token)).toContain('"signedIn":false');
});

test("the announcement bar is in the server's HTML until the player closes it, and hydrates either way without a mismatch", async ({ browser, baseURL, request }) => {
  const staff = await seedUser({ isStaff: true });
  const title = unique("Drawn news ");
  const posted = await request.post("/api/v2/announcements/", { headers: { authorization: `Token ${staff.token}` }, data: { title, body: "The **bar** is drawn by the server." } });
  expect(posted.ok()).toBe(true);
  const context = await signedIn(browser, baseURL!, world.player);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && HYDRATION_PROBLEM.test(message.text())) problems.push(message.text());
  });
  const html = async () => (await page.request.get("/campaign")).text();
  try {
    expect(await html()).toContain(title);
    await page.goto("/campaign");
    const bar = page.getByTestId("announcement-bar");
    await expect(bar).toContainText(title);
    await hydrating(page);
    await bar.getByRole("button", { name: "Hide announcement" }).click();
    await expect(bar).toHaveCount(0);
    // Closed on this browser: the server now draws the page without it, and the browser agrees.
    expect(await html()).not.toContain('data-testid="announcement-bar"');
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByTestId("announcement-bar")).toHaveCount(0);
    await page.waitForTimeout(500);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
    await request.delete(`/api/v2/announcements/${(await posted.json()).d.id}/`, { headers: { authorization: `Token ${staff.token}` } }).catch(() => undefined);
  }
});
