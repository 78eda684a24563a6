import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { seedUser, signIn, unique } from "./support/db.ts";

/**
 * axe-core on every route, for each kind of visitor (logged out, a player in a team, staff) and in
 * both colour schemes. Any violation of any impact fails the sweep, each listed with the route,
 * the scheme and the elements axe found.
 */

test.describe.configure({ timeout: 300_000 });

type Scheme = "light" | "dark";
const SCHEMES: Scheme[] = ["light", "dark"];

const ADMIN_PAGES = ["config", "announcements", "cms", "invites", "statistics", "members", "teams", "audit_log", "allChallenges", "check", "port", "jobs", "leaderboard-groups", "outbox"];

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(", ")}`);
}

/** Opens each route (waiting for its h1) in each scheme and collects axe's findings. */
async function sweep(page: Page, routes: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of SCHEMES) {
    await page.evaluate((s) => window.localStorage.setItem("flagship.color-scheme", s), scheme);
    for (const route of routes) {
      await page.goto(route);
      await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", scheme);
      // One h1 per page, inside the main landmark, once the page has settled (a page the server drew
      // may show a part's loading screen for a moment while that part's code arrives).
      await page.waitForLoadState("networkidle");
      const h1 = page.locator("main h1");
      const shown = await h1.first().waitFor({ timeout: 10_000 }).then(() => true, () => false);
      if (!shown || (await page.locator("h1").count()) !== 1) found.push(`${route} [${scheme}] not one h1 in main (${await page.locator("h1").count()} h1 on the page)`);
      await page.waitForLoadState("networkidle");
      for (const violation of await axeViolations(page)) found.push(`${route} [${scheme}] ${violation}`);
    }
  }
  return found;
}

let categorySlug = "";
let challengeSlug = "";
let teamId = 0;
let playerName = "";

test.beforeAll(async ({ request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  teamId = team.id;
  playerName = team.members[0]!.username;
  const category = await seedCategory(request, staff, { name: unique("Sweep "), contained_type: "jeopardy", description: "A category for the accessibility sweep." });
  const first = await seedChallenge(request, staff, {
    category: category.id,
    name: "Sweep Door",
    score: 100,
    description: "Find the **key**.\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    flag_metadata: { flag: "flag{sweep}" },
    hints: [{ name: "Nudge", penalty: 10, text: "Look under the mat" }],
  });
  await seedChallenge(request, staff, { category: category.id, name: "Sweep Vault", score: 300, flag_metadata: { flag: "flag{vault}" }, unlock_requirements: `${first.id}` });
  categorySlug = category.slug;
  challengeSlug = first.slug;
});

const PUBLIC = ["/", "/login", "/register", "/password_reset", "/leaderboard", "/users", "/teams", "/debug", "/no-such-page"];

test("every public route passes axe, logged out, light and dark", async ({ page }) => {
  await page.goto("/");
  expect(await sweep(page, PUBLIC)).toEqual([]);
});

test("every player route passes axe, light and dark", async ({ page }) => {
  const team = await seedTeam();
  await signIn(page, team.members[0]!);
  await page.goto("/");
  const routes = [
    "/",
    "/campaign",
    `/campaign/${categorySlug}`,
    `/campaign/${categorySlug}/${challengeSlug}`,
    "/leaderboard",
    "/users",
    "/teams",
    "/profile",
    `/profile/${playerName}`,
    "/settings",
    "/team",
    `/team/${teamId}`,
  ];
  expect(await sweep(page, routes)).toEqual([]);
});

test("a player without a team: create and join pass axe, light and dark", async ({ page }) => {
  const loner = await seedUser();
  await signIn(page, loner);
  await page.goto("/");
  expect(await sweep(page, ["/team/create", "/team/join"])).toEqual([]);
});

test("every staff route passes axe, light and dark", async ({ page }) => {
  const staff = await seedUser({ isStaff: true });
  await signIn(page, staff);
  await page.goto("/");
  const routes = [
    "/campaign",
    `/campaign/${categorySlug}`,
    `/campaign/${categorySlug}/${challengeSlug}`,
    "/campaign/new",
    ...ADMIN_PAGES.map((p) => `/admin/${p}`),
    "/debug/theme",
    "/debug/state",
    "/debug/experiments",
  ];
  expect(await sweep(page, routes)).toEqual([]);
});

test("the large leaderboard passes axe, light and dark", async ({ page }) => {
  await page.goto("/");
  const found: string[] = [];
  for (const scheme of SCHEMES) {
    await page.evaluate((s) => window.localStorage.setItem("flagship.color-scheme", s), scheme);
    await page.goto("/largeLeaderboard");
    await expect(page.locator("h1").first()).toBeVisible();
    for (const violation of await axeViolations(page)) found.push(`/largeLeaderboard [${scheme}] ${violation}`);
  }
  expect(found).toEqual([]);
});
