import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { database, type SeededUser, seedUser, setConfig } from "./support/db.ts";

/**
 * The README's screenshots (`npm run screenshots`, not part of `npm test`): a small demo event,
 * arranged through the staff API and played through the flag endpoint on a fresh database, then
 * photographed at desktop (1440x900) and phone (390x844) size into docs/screenshots/.
 */

const OUT = path.resolve(import.meta.dirname, "../../../docs/screenshots");
/** The sizes every screen is taken at; on a phone the sidebar slides away before the picture. */
const VIEWPORTS = [
  { name: "desktop", size: { width: 1440, height: 900 }, slidingSidebar: false },
  { name: "phone", size: { width: 390, height: 844 }, slidingSidebar: true },
] as const;

type Viewport = (typeof VIEWPORTS)[number];

type Scheme = "light" | "dark";

interface Demo {
  staff: SeededUser;
  player: SeededUser;
  web: string;
  campaign: string;
  challenge: string;
}

let demo: Demo;

async function api(request: import("@playwright/test").APIRequestContext, user: SeededUser, url: string, data: unknown): Promise<{ s: boolean; m: string; d: unknown }> {
  const response = await request.post(`/api/v2${url}`, { headers: { authorization: `Token ${user.token}` }, data });
  return (await response.json()) as { s: boolean; m: string; d: unknown };
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  const staff = await seedUser({ isStaff: true, username: "organiser" });
  const hour = 3600;
  const now = Math.floor(Date.now() / 1000);
  await setConfig("event_name", "Harbour CTF 2026");
  await setConfig("start_time", now - 5 * hour);
  await setConfig("end_time", now + 7 * hour);

  const web = await seedCategory(request, staff, {
    name: "Web",
    contained_type: "jeopardy",
    description: "Browsers, cookies and **servers that trust too much**.",
  });
  const crypto = await seedCategory(request, staff, {
    name: "Crypto",
    contained_type: "jeopardy",
    description: "Ciphers old and new. Bring your own maths.",
  });
  const campaign = await seedCategory(request, staff, {
    name: "Operation Lighthouse",
    contained_type: "campaign",
    description: "A red-team story in six acts: each step opens the next.",
  });

  const cookie = await seedChallenge(request, staff, {
    category: web.id,
    name: "Cookie Jar",
    score: 100,
    author: "mira",
    description: "The shop remembers who you are in a cookie.\n\nCan you convince it that you are the **admin**?\n\n- Shop: `http://shop.harbour.ctf`\n- Flag format: `flag{...}`",
    flag_metadata: { flag: "flag{c00kies_are_not_auth}" },
    hints: [{ name: "Look closer", penalty: 10, text: "Base64 is not encryption." }],
  });
  const panel = await seedChallenge(request, staff, {
    category: web.id,
    name: "Admin Panel",
    score: 250,
    author: "jonas",
    description: "Someone left the staff panel online. It checks the password like this:\n\n```js\nif (req.body.password == process.env.ADMIN) {\n  return res.send(flag);\n}\n```\n\nWhat could possibly go wrong?",
    flag_metadata: { flag: "flag{loose_equality}" },
    hints: [{ name: "Types", penalty: 25, text: "What does JSON let you send besides strings?" }],
  });
  const template = await seedChallenge(request, staff, {
    category: web.id,
    name: "Template Trouble",
    score: 400,
    author: "mira",
    description: "The greeting page renders your name with a template engine.\n\n| input | output |\n|---|---|\n| `Ada` | Hello, Ada! |\n| `{{7*7}}` | Hello, 49! |\n\nRead `/flag.txt`.",
    flag_metadata: { flag: "flag{ssti_all_the_way_down}" },
  });
  for (const [name, score, description] of [["Open Redirect", 150, "An innocent `?next=` parameter."], ["GraphQL Gossip", 200, "Introspection is on. What else is?"], ["Cache Poisoning", 350, "One request to poison them all."]] as const) {
    await seedChallenge(request, staff, { category: web.id, name, score, author: "jonas", description, flag_metadata: { flag: `flag{${score}}` } });
  }
  const caesar = await seedChallenge(request, staff, {
    category: crypto.id,
    name: "Caesar's Salad",
    score: 50,
    author: "ines",
    description: "`synt{ebgngr_zr_gjragl_guerr}`\n\nA classic to warm up.",
    flag_metadata: { flag: "flag{rotate_me_twenty_three}" },
  });
  const oracle = await seedChallenge(request, staff, {
    category: crypto.id,
    name: "Padding Oracle",
    score: 300,
    author: "ines",
    description: "The vault answers *padding error* or *access denied*. That is one bit too many.",
    flag_metadata: { flag: "flag{one_bit_too_many}" },
  });
  await seedChallenge(request, staff, {
    category: crypto.id,
    name: "Lattice Party",
    score: 500,
    author: "jonas",
    description: "Short vectors, long nights. ~~Brute force~~ will not do.",
    flag_metadata: { flag: "flag{lll_to_the_rescue}" },
  });

  // The map: staff-set cells, so that each step sits next to the one that opens it.
  const step = (name: string, score: number, x: number, y: number, description: string, unlock?: string) =>
    seedChallenge(request, staff, {
      category: campaign.id,
      name,
      score,
      description,
      challenge_metadata: { x, y },
      flag_metadata: { flag: `flag{${name.toLowerCase().replace(/\W+/g, "_")}}` },
      ...(unlock && { unlock_requirements: unlock }),
    });
  const recon = await step("Recon", 100, 0, 1, "Map the lighthouse's network from the outside.");
  const phishing = await step("Phishing", 200, 0, 0, "Craft the mail the keeper will open.", `${recon.id}`);
  await step("Harvest Credentials", 250, 1, 0, "The keeper typed a password somewhere. Find it.", `${phishing.id}`);
  const foothold = await step("Foothold", 200, 1, 1, "Get a shell on the keeper's workstation.", `${recon.id}`);
  const escalate = await step("Privilege Escalation", 300, 2, 1, "From keeper to root.", `${foothold.id}`);
  await step("Exfiltration", 500, 3, 1, "Get the logbook out without tripping the alarm.", `${escalate.id}`);

  const teams = [
    await seedTeam(3, { name: "Null Pointers", usernames: ["ada", "grace", "linus"] }),
    await seedTeam(2, { name: "Segfault Sailors", usernames: ["marlin", "coral"] }),
    await seedTeam(3, { name: "Rootkit Rangers", usernames: ["kenji", "priya", "sam"] }),
    await seedTeam(2, { name: "Byte Club", usernames: ["tyler", "marla"] }),
    await seedTeam(2, { name: "Little Bobby Tables", usernames: ["bobby", "alice"] }),
    await seedTeam(1, { name: "Lone Wolf", usernames: ["wolf"] }),
  ];
  const flags = new Map<number, string>([
    [cookie.id, "flag{c00kies_are_not_auth}"],
    [panel.id, "flag{loose_equality}"],
    [template.id, "flag{ssti_all_the_way_down}"],
    [caesar.id, "flag{rotate_me_twenty_three}"],
    [oracle.id, "flag{one_bit_too_many}"],
    [recon.id, "flag{recon}"],
    [phishing.id, "flag{phishing}"],
    [foothold.id, "flag{foothold}"],
    [escalate.id, "flag{privilege_escalation}"],
  ]);
  // [team, member, challenge, minutes after the start], in the order they happened.
  const solves: [number, number, number, number][] = [
    [0, 0, caesar.id, 6], [2, 0, caesar.id, 9], [1, 1, caesar.id, 14], [3, 0, caesar.id, 21], [4, 1, caesar.id, 30],
    [0, 1, cookie.id, 25], [2, 1, recon.id, 33], [0, 2, recon.id, 41], [1, 0, cookie.id, 52], [5, 0, caesar.id, 58],
    [2, 2, cookie.id, 64], [0, 0, foothold.id, 77], [3, 1, cookie.id, 88], [1, 0, recon.id, 96], [2, 0, panel.id, 110],
    [0, 1, panel.id, 118], [4, 0, cookie.id, 131], [2, 1, foothold.id, 142], [0, 2, phishing.id, 150], [1, 1, oracle.id, 163],
    [5, 0, cookie.id, 170], [2, 2, oracle.id, 184], [0, 0, escalate.id, 196], [3, 0, recon.id, 205], [1, 0, phishing.id, 219],
    [0, 1, template.id, 236], [2, 0, phishing.id, 248], [4, 1, recon.id, 262], [0, 2, oracle.id, 275], [2, 1, template.id, 289],
  ];
  const start = now - 5 * hour;
  for (const [team, member, challenge, minute] of solves) {
    const player = teams[team]!.members[member]!;
    const answer = await api(request, player, "/challenges/submit_flag/", { challenge, flag: flags.get(challenge) });
    expect(answer.m, `${player.username} solving ${challenge}`).toBe("correct_flag");
    // The solve happened during the event, not all at once now.
    const { rows } = await database().query<{ id: number }>(
      "UPDATE solves SET timestamp = to_timestamp($3) WHERE team_id = $1 AND challenge_id = $2 RETURNING id",
      [teams[team]!.id, challenge, start + minute * 60],
    );
    await database().query("UPDATE score_records SET timestamp = to_timestamp($2) WHERE solve_id = $1", [rows[0]!.id, start + minute * 60]);
  }
  // A couple of wrong guesses, as in any event.
  await api(request, teams[3]!.members[0]!, "/challenges/submit_flag/", { challenge: panel.id, flag: "flag{admin}" });
  await api(request, teams[5]!.members[0]!, "/challenges/submit_flag/", { challenge: oracle.id, flag: "flag{guess}" });
  await database().query("UPDATE teams t SET last_score_at = (SELECT max(timestamp) FROM solves s WHERE s.team_id = t.id)");
  await database().query("UPDATE users u SET last_score_at = (SELECT max(timestamp) FROM solves s WHERE s.user_id = u.id)");

  const announced = await api(request, staff, "/announcements/", {
    title: "Template Trouble is live",
    body: "The greeting service was **restarted**. If your exploit stopped working, try again.",
  });
  expect(announced.s).toBe(true);
  // The rows above went behind the server's caches: a config write makes it drop them.
  await setConfig("experiments", {});

  demo = { staff, player: teams[1]!.members[0]!, web: web.slug, campaign: campaign.slug, challenge: `${web.slug}/${panel.slug}` };
});

interface Shot {
  user?: SeededUser;
  scheme: Scheme;
  ready: (page: Page) => Promise<void>;
}

/** Opens `url` at each viewport in a fresh browser context and saves `<name>-<viewport>.png`. */
async function capture(browser: Browser, name: string, url: string, shot: Shot): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  for (const viewport of VIEWPORTS) {
    // Chromium drops a page's requests when the host's network changes (Docker adding a network
    // on a busy machine is enough): such a load is simply taken again, twice at most.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await photograph(browser, path.join(OUT, `${name}-${viewport.name}.png`), url, viewport, shot);
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  }
}

async function photograph(browser: Browser, file: string, url: string, viewport: Viewport, shot: Shot): Promise<void> {
  const context = await browser.newContext({ viewport: viewport.size, colorScheme: shot.scheme, reducedMotion: "reduce" });
  try {
    await context.addInitScript(({ token, scheme }) => {
      if (window.location.origin === "null") return;
      window.localStorage.setItem("flagship.color-scheme", scheme);
      if (token) window.localStorage.setItem("flagship.token", token);
    }, { token: shot.user?.token ?? null, scheme: shot.scheme });
    const page = await context.newPage();
    await page.goto(url);
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", shot.scheme);
    await expect(page.locator("main h1").first()).toBeVisible();
    await shot.ready(page);
    await page.waitForLoadState("networkidle");
    if (viewport.slidingSidebar) await expect(page.locator("#app-navbar")).not.toBeInViewport();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: file, animations: "disabled" });
  } finally {
    await context.close();
  }
}

test("the README's screenshots", async ({ browser }) => {
  test.setTimeout(180_000);
  await capture(browser, "challenges", `/campaign/${demo.web}`, {
    user: demo.player,
    scheme: "light",
    // A card's name (the announcement bar names Template Trouble before the list has loaded).
    ready: (page) => expect(page.getByText("Cache Poisoning")).toBeVisible(),
  });
  await capture(browser, "campaign-dark", `/campaign/${demo.campaign}`, {
    user: demo.player,
    scheme: "dark",
    ready: (page) => expect(page.getByText("Foothold").first()).toBeVisible(),
  });
  await capture(browser, "challenge", `/campaign/${demo.challenge}`, {
    user: demo.player,
    scheme: "light",
    ready: async (page) => {
      await expect(page.getByText("What could possibly go wrong?")).toBeVisible();
      // Down to the flag form, the page's point.
      await page.getByRole("button", { name: /submit/i }).last().scrollIntoViewIfNeeded();
    },
  });
  await capture(browser, "leaderboard", "/leaderboard", {
    user: demo.player,
    scheme: "light",
    ready: async (page) => {
      await expect(page.getByRole("table", { name: "Teams" }).getByRole("row").nth(1)).toContainText("Null Pointers");
      await expect(page.getByRole("img", { name: "Score over time of the top ten" }).locator("path").first()).toBeAttached();
    },
  });
  await capture(browser, "staff-config", "/admin/config", {
    user: demo.staff,
    scheme: "light",
    ready: (page) => expect(page.getByRole("textbox", { name: "Event name" })).toHaveValue("Harbour CTF 2026"),
  });
  await capture(browser, "login", "/login", {
    scheme: "light",
    ready: (page) => expect(page.getByRole("button", { name: /log in/i }).first()).toBeVisible(),
  });
});
