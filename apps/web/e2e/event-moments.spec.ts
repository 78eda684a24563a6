import { expect, type Page, test } from "@playwright/test";
import { expectAccessible } from "./support/axe.ts";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { database, E2E_PASSWORD, seedUser, type SeededUser, setConfig, signIn, unique } from "./support/db.ts";

/**
 * The moments of an event day as players, visitors and staff meet them: before the start (signed
 * in, a team formed, the lock page following a moved start), running (the organiser's home page),
 * frozen (every board says since when), ended (no flag form, "Event over") and revealed (the
 * console's one action, the open boards following). Each step is checked with axe at 1440 and
 * 390 px; the shared server's schedule is put back after each journey.
 */

const now = () => Math.floor(Date.now() / 1000);

test.afterEach(async () => {
  await setConfig("scoreboard_freeze_time", null);
  await setConfig("start_time", null);
  await setConfig("end_time", null);
  await setConfig("event_timezone", "UTC");
  await setConfig("enable_flag_submission_after_competition", false);
});

/** axe at a desktop's and a phone's width, with a screenshot of each to look at. */
async function atBothWidths(page: Page, name: string): Promise<void> {
  // A home page's heading is the organiser's markdown, drawn once the markdown renderer has loaded
  // (its text shows as it is until then): axe reads the page once its heading is there.
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  for (const [width, height, label] of [
    [1440, 900, "desktop"],
    [390, 844, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath(`${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

async function submit(page: Page, user: SeededUser, challenge: number, flag: string) {
  const response = await page.request.post("/api/v2/challenges/submit_flag/", { headers: { authorization: `Token ${user.token}` }, data: { challenge, flag } });
  return (await response.json()) as { s: boolean; d: { correct?: boolean } };
}

test("before the start: a player signs in, forms a team and reads when the event opens, which follows a moved start", async ({ page }) => {
  await setConfig("start_time", now() + 2 * 3600);
  await setConfig("end_time", now() + 8 * 3600);
  await setConfig("event_timezone", "Asia/Tokyo");
  const player = await seedUser();

  // Login before the start is on by default: the password form signs the player in.
  await page.goto("/login");
  await page.getByLabel("Username or email").fill(player.username);
  await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page.getByTestId("home-content")).toBeVisible();
  await expect(page.getByTestId("home-actions").getByRole("link", { name: "Create or join a team" })).toBeVisible();

  const team = unique("Early birds ");
  await page.goto("/team/create");
  await page.getByLabel("Team name").fill(team);
  await page.getByLabel("Team secret").fill("a long team secret");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByText("Team created")).toBeVisible();

  await page.goto("/");
  await expect(page.getByTestId("home-actions").getByRole("link", { name: "Your team" })).toBeVisible();
  await atBothWidths(page, "moment-before-home");

  await page.goto("/campaign");
  const lock = page.getByTestId("lock-page");
  await expect(lock).toBeVisible();
  const opens = page.getByTestId("lock-opens");
  await expect(opens).toContainText("(your time)");
  await expect(opens).toContainText("in the event's time zone");
  await expect(opens).toContainText("GMT+9");
  await atBothWidths(page, "moment-before-lock");

  // Staff move the start an hour later: the open page follows without a reload.
  const before = await opens.innerText();
  await setConfig("start_time", now() + 3 * 3600);
  await expect(opens).not.toHaveText(before);
  await expect(page.getByTestId("countdown")).toHaveAttribute("aria-label", /Starts in 2 hours/);
});

test("running: a signed-in player's Home is the organiser's page, and the challenges take flags", async ({ page, request }) => {
  await setConfig("start_time", now() - 60);
  await setConfig("end_time", now() + 4 * 3600);
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Moments "), contained_type: "jeopardy", description: "" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: unique("Running "), score: 100, flag_metadata: { flag: "flag{run}" } });
  const { members } = await seedTeam(1);
  await signIn(page, members[0]!);
  await page.goto(`/campaign/${category.id}`);
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("home-content")).toBeVisible();
  await expect(page.getByTestId("home-actions").getByRole("link", { name: "Go to the challenges" })).toBeVisible();
  await expect(page.getByTestId("countdown")).toHaveAttribute("aria-label", /^Ends in/);
  await atBothWidths(page, "moment-running-home");

  await page.goto(`/campaign/${category.id}/${challenge.id}`);
  await expect(page.getByRole("textbox", { name: /flag/i }).first()).toBeVisible();
  await expect(page.getByTestId("event-over-flags")).toHaveCount(0);
});

test("frozen: the leaderboard, the projector, team and profile pages say since when; staff see both boards", async ({ page, browser, request }) => {
  // Five pages, each looked at in two widths by axe and a screenshot: longer than a journey's minute
  // on a machine running the other journeys beside it.
  test.setTimeout(150_000);
  await setConfig("start_time", now() - 3600);
  await setConfig("end_time", now() + 3600);
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Freeze "), contained_type: "jeopardy", description: "" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: unique("Late "), score: 300, flag_metadata: { flag: "flag{late}" } });
  const late = await seedTeam(1);
  const reader = await seedTeam(1);
  await setConfig("scoreboard_freeze_time", now() - 60);
  expect((await submit(page, late.members[0]!, challenge.id, "flag{late}")).d.correct).toBe(true);

  await signIn(page, reader.members[0]!);
  await page.goto("/leaderboard");
  await expect(page.getByTestId("freeze-notice")).toContainText("Scoreboard frozen since");
  const lateRow = page.getByRole("row", { name: new RegExp(late.name) });
  await expect(lateRow).toContainText("0");
  await expect(lateRow).not.toContainText("300");
  await atBothWidths(page, "moment-frozen-leaderboard");

  await page.goto(`/team/${late.id}`);
  await expect(page.getByTestId("freeze-notice")).toBeVisible();
  await atBothWidths(page, "moment-frozen-team");
  await page.goto(`/profile/${late.members[0]!.id}`);
  await expect(page.getByTestId("freeze-notice")).toBeVisible();

  await page.goto("/largeLeaderboard");
  await expect(page.getByTestId("projector-moment")).toContainText("Scoreboard frozen since");
  await atBothWidths(page, "moment-frozen-projector");

  const staffContext = await browser.newContext();
  const console = await staffContext.newPage();
  try {
    await signIn(console, staff);
    await console.goto("/leaderboard");
    await expect(console.getByTestId("freeze-notice")).toContainText("Players see the scoreboard frozen since");
    await expect(console.getByRole("row", { name: new RegExp(late.name) })).toContainText("300");
    await console.getByText("Players' board (frozen)").click();
    await expect(console.getByRole("row", { name: new RegExp(late.name) })).not.toContainText("300");
    await atBothWidths(console, "moment-frozen-staff-board");
    // The projector shows the room what players see, even on a staff member's screen.
    await console.goto("/largeLeaderboard");
    await expect(console.getByTestId("projector-moment")).toContainText("Scoreboard frozen since");
    await expect(console.getByTestId("projector-row").filter({ hasText: late.name })).not.toContainText("300");
  } finally {
    await staffContext.close();
  }
});

test("ended: the header, the challenge page and the projector say it is over; the home page and the sidebar stop offering sign-up", async ({ page, browser, request }) => {
  // Four pages, each looked at in two widths by axe and a screenshot (as "frozen" above).
  test.setTimeout(150_000);
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Ended "), contained_type: "jeopardy", description: "" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: unique("Over "), score: 100, flag_metadata: { flag: "flag{over}" } });
  await setConfig("start_time", now() - 7200);
  await setConfig("end_time", now() - 60);
  await setConfig("scoreboard_freeze_time", now() - 3600);
  await setConfig("enable_registration", true);
  const { members } = await seedTeam(1);
  await signIn(page, members[0]!);

  await page.goto(`/campaign/${category.id}/${challenge.id}`);
  await expect(page.getByTestId("event-over")).toHaveText("Event over");
  await expect(page.getByTestId("event-over-flags")).toContainText("Flags are no longer accepted");
  await expect(page.getByRole("button", { name: "Submit" })).toHaveCount(0);
  await atBothWidths(page, "moment-ended-challenge");

  // Submissions after the end switched on: the form is back, and says what a flag now does.
  await setConfig("enable_flag_submission_after_competition", true);
  await expect(page.getByTestId("event-over-late-flags")).toContainText("no longer scores");
  await expect(page.getByTestId("event-over-flags")).toHaveCount(0);

  await page.goto("/largeLeaderboard");
  await expect(page.getByTestId("projector-clock")).toContainText("Event over");
  await expect(page.getByTestId("projector-moment")).toContainText("revealed at the prize-giving");
  await atBothWidths(page, "moment-ended-projector");

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  try {
    await visitor.goto("/");
    await expect(visitor.getByTestId("home-content")).toBeVisible();
    await expect(visitor.getByTestId("home-actions").getByRole("link", { name: "Log in" })).toBeVisible();
    await expect(visitor.getByRole("link", { name: "Sign up" })).toHaveCount(0);
    // The sidebar follows the same rule: registration is on, but the event is over.
    const nav = visitor.getByRole("navigation", { name: "Main navigation" });
    await expect(nav.getByRole("link", { name: "Log in" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Register" })).toHaveCount(0);
    await atBothWidths(visitor, "moment-ended-home");
  } finally {
    await visitorContext.close();
  }
});

test("revealed: staff reveal the final board from the console, and a player's open board follows", async ({ page, browser, request }) => {
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Reveal "), contained_type: "jeopardy", description: "" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: unique("Hidden win "), score: 400, flag_metadata: { flag: "flag{win}" } });
  const winner = await seedTeam(1);
  const reader = await seedTeam(1);
  await setConfig("start_time", now() - 7200);
  await setConfig("scoreboard_freeze_time", now() - 120);
  expect((await submit(page, winner.members[0]!, challenge.id, "flag{win}")).d.correct).toBe(true);
  await setConfig("end_time", now() - 30);

  await signIn(page, reader.members[0]!);
  await page.goto("/leaderboard");
  await expect(page.getByTestId("freeze-notice")).toContainText("The final board is revealed at the prize-giving");
  await expect(page.getByRole("row", { name: new RegExp(winner.name) })).not.toContainText("400");

  const staffContext = await browser.newContext();
  const console = await staffContext.newPage();
  try {
    await signIn(console, staff);
    await console.goto("/admin/scoreboard");
    await expect(console.getByTestId("scoreboard-status")).toContainText("Frozen since");
    await atBothWidths(console, "moment-reveal-console");
    await console.getByTestId("reveal-board").click();
    const dialog = console.getByRole("dialog", { name: "Reveal the final board?" });
    await expect(dialog).toBeVisible();
    await expectAccessible(console);
    await dialog.getByRole("button", { name: "Reveal the final board" }).click();
    await expect(console.getByText("Final board revealed")).toBeVisible();
    await expect(console.getByTestId("scoreboard-status")).toContainText("live");
  } finally {
    await staffContext.close();
  }

  // The player's page, never reloaded, shows the final results.
  await expect(page.getByTestId("freeze-notice")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: "Final results" })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(winner.name) })).toContainText("400");
  await atBothWidths(page, "moment-revealed-leaderboard");
  const { rows } = await database().query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'reveal_scoreboard' AND user_id = $1`, [staff.id]);
  expect(rows[0]!.n).toBe(1);
});
