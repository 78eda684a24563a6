import { expect, type Page, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe.ts";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { database, seedUser, type SeededUser, setConfig, unique } from "./support/db.ts";

test.describe.configure({ mode: "serial" });

async function submitFlag(page: Page, user: SeededUser, challenge: number, flag: string) {
  const response = await page.request.post("/api/v2/challenges/submit_flag/", { headers: { authorization: `Token ${user.token}` }, data: { challenge, flag } });
  expect(((await response.json()) as { d: { correct: boolean } }).d.correct).toBe(true);
}

test("the projector board: rows sized to two teams, a large clock, the latest first bloods", async ({ page, request }) => {
  const db = database();
  const staff = await seedUser({ isStaff: true });
  const [red, blue] = [await seedTeam(1, { name: unique("Red ") }), await seedTeam(1, { name: unique("Blue ") })];
  const category = await seedCategory(request, staff, { name: unique("Board "), contained_type: "jeopardy" });
  const warmup = await seedChallenge(request, staff, { category: category.id, name: unique("Warmup "), score: 100, flag_metadata: { flag: "flag{warm}" } });
  const cipher = await seedChallenge(request, staff, { category: category.id, name: unique("Cipher "), score: 300, flag_metadata: { flag: "flag{cipher}" } });
  await submitFlag(page, red.members[0]!, warmup.id, "flag{warm}");
  await submitFlag(page, blue.members[0]!, warmup.id, "flag{warm}");
  await submitFlag(page, blue.members[0]!, cipher.id, "flag{cipher}");
  // Only these two teams on the board while the journey looks at it.
  const { rows: others } = await db.query<{ id: number }>(`UPDATE teams SET is_visible = false WHERE is_visible AND id <> ALL($1::int[]) RETURNING id`, [[red.id, blue.id]]);
  await setConfig("end_time", Math.floor(Date.now() / 1000) + 3 * 3600);
  try {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto("/largeLeaderboard");
    const rows = page.getByTestId("projector-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(blue.name);
    await expect(rows.nth(1)).toContainText(red.name);
    // Two teams do not stretch over the screen: rows of a readable, ordinary height.
    for (const box of await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height))) {
      expect(box).toBeGreaterThanOrEqual(56);
      expect(box).toBeLessThanOrEqual(100);
    }
    await expect(page.getByTestId("projector-board")).toHaveAttribute("data-autoscroll", "false");

    // The clock: the time left in figures large enough for the back of the room.
    const clock = page.getByTestId("projector-clock");
    await expect(clock.getByText("Ends in")).toBeVisible();
    await expect(clock.getByTestId("projector-clock-value")).toHaveText(/^02:5\d:\d\d$/);
    expect(await clock.getByTestId("projector-clock-value").evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(80);
    await expect(clock).toBeInViewport({ ratio: 1 });

    // The latest first bloods, newest first; Blue's second solve of the warm-up is no first blood.
    const bloods = page.getByTestId("first-bloods").getByRole("listitem");
    await expect(bloods.nth(0)).toContainText(cipher.name);
    await expect(bloods.nth(0)).toContainText(blue.name);
    await expect(bloods.nth(1)).toContainText(warmup.name);
    await expect(bloods.nth(1)).toContainText(red.name);
    // Their times read like the graph's 24-hour axis beside them, never "02:15 PM".
    await expect(bloods.nth(0).locator("time")).toHaveText(/^\d\d:\d\d$/);
    expect(await bloods.first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(24);

    // With a one-line legend the graph takes most of the side column.
    await expect.poll(async () => (await page.getByRole("img", { name: "Score over time of the top ten" }).boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(450);
    await expect(page.getByTestId("graph-legend").getByRole("button").last()).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: "test-results/projector-two-teams.png" });
    // The board is dark whatever the visitor's scheme: the light choice gives the same page.
    await page.evaluate(() => window.localStorage.setItem("flagship.color-scheme", "light"));
    await page.reload();
    await expect(rows).toHaveCount(2);
    await expectNoAxeViolations(page);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(clock).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: "test-results/projector-two-teams-phone.png", fullPage: true });
  } finally {
    await db.query(`UPDATE teams SET is_visible = true WHERE id = ANY($1::int[])`, [others.map((r) => r.id)]);
    await setConfig("end_time", null);
  }
});

test("the leaderboard: team and user tabs kept in the hash, load more, the graph", async ({ page }) => {
  const db = database();
  const prefix = unique("lb");
  // 120 teams with one member each, scored far above anything other journeys leave behind, so
  // they lead the board and it needs a second page.
  const score = (i: number) => 100_000 + i * 10;
  for (let i = 1; i <= 120; i += 1) {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO teams (name, password, leaderboard_points, points, last_score_at) VALUES ($1, 'secretsecret', $2, $2, now() - interval '1 hour' + ($3 || ' seconds')::interval) RETURNING id`,
      [`${prefix}-team-${i}`, score(i), String(i)],
    );
    const member = await seedUser({ username: `${prefix}u${i}`, teamId: rows[0]!.id });
    await db.query(`UPDATE users SET leaderboard_points = $1, points = $1 WHERE id = $2`, [score(i), member.id]);
    // Drawn on the graph as an award (the graph draws solves from the solves themselves, at what
    // they count for now, and awards from their score records).
    await db.query(`INSERT INTO score_records (user_id, team_id, reason, points, leaderboard, timestamp) VALUES ($1, $2, 'award', $3, true, now() - interval '30 minutes')`, [member.id, rows[0]!.id, score(i)]);
  }
  // The rows went straight into the database, behind the server's board cache: a config change
  // (to the value it has) makes every copy drop the boards an earlier journey may have read.
  await setConfig("experiments", {});
  // What the board holds now, whatever earlier journeys scored.
  const { rows: counted } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM teams WHERE is_visible`);
  const onBoard = counted[0]!.n;

  await page.goto("/leaderboard");
  const teamTable = page.getByRole("table", { name: "Teams" });
  await expect(teamTable.getByRole("row").nth(1)).toContainText(`${prefix}-team-120`);
  await expect(teamTable.getByRole("row").nth(1)).toContainText(String(score(120)));
  await expect(teamTable.getByRole("row").nth(2)).toContainText(`${prefix}-team-119`);
  await expect(teamTable.getByRole("row")).toHaveCount(101);
  await expect(page.getByRole("img", { name: "Score over time of the top ten" })).toBeVisible();
  await expect(page.locator("svg path").first()).toBeAttached();

  await page.getByRole("button", { name: "Load more" }).click();
  await expect(teamTable.getByRole("row")).toHaveCount(Math.min(onBoard, 200) + 1);
  if (onBoard <= 200) await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);

  await page.getByRole("tab", { name: "Users" }).click();
  await expect(page).toHaveURL(/#user$/);
  await expect(page.getByRole("table", { name: "Users" }).getByRole("row").nth(1)).toContainText(`${prefix}u120`);
  await page.screenshot({ path: "test-results/leaderboard.png", fullPage: true });

  await page.reload();
  await expect(page.getByRole("tab", { name: "Users" })).toHaveAttribute("aria-selected", "true");
});

test("the large leaderboard is a full-screen board without the shell", async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  // The visitor chose the light scheme; the projector board is dark all the same.
  await page.goto("/");
  await page.evaluate(() => window.localStorage.setItem("flagship.color-scheme", "light"));
  await page.goto("/largeLeaderboard");
  const rows = page.getByRole("table", { name: "Leaderboard" }).getByRole("row");
  await expect(rows.first()).toContainText("101200");
  await expect(page.getByRole("navigation", { name: "Main navigation" })).toHaveCount(0);
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  expect(await page.evaluate(() => window.localStorage.getItem("flagship.color-scheme"))).toBe("light");
  // The top three are named, not told apart by colour alone; the rest show their place only.
  await expect(rows.nth(0).getByTestId("projector-medal")).toHaveText("Gold");
  await expect(rows.nth(1).getByTestId("projector-medal")).toHaveText("Silver");
  await expect(rows.nth(2).getByTestId("projector-medal")).toHaveText("Bronze");
  await expect(rows.nth(3).getByTestId("projector-medal")).toHaveCount(0);
  await expect(rows.nth(3).getByTestId("projector-rank")).toHaveText("4");
  // A chart sized for a projector: axis labels and legend readable from the back of the room, in
  // the UI's typeface.
  const graph = page.getByRole("img", { name: "Score over time of the top ten" });
  const chart = await graph.boundingBox();
  // As tall as the side column allows once the first bloods and the ten-name legend have their room.
  expect(chart!.height).toBeGreaterThanOrEqual(240);
  await expect(graph.locator("svg text").first()).toBeAttached();
  const labels = await graph.locator("svg text").evaluateAll((texts) => texts.map((t) => getComputedStyle(t)).map((s) => ({ size: parseFloat(s.fontSize), font: s.fontFamily })));
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) {
    expect(label.size).toBeGreaterThanOrEqual(22);
    expect(label.font).toContain("Inter");
  }
  const legend = page.getByTestId("graph-legend").getByRole("button");
  await expect(legend).toHaveCount(10);
  for (const size of await legend.evaluateAll((items) => items.map((i) => parseFloat(getComputedStyle(i).fontSize)))) expect(size).toBeGreaterThanOrEqual(24);
  // The whole legend on the screen beside the first bloods, none of it cut off at the bottom.
  await expect(legend.last()).toBeInViewport({ ratio: 1 });
  // Ten lines told apart on an eight-colour palette: the ninth and tenth repeat a colour, dashed.
  const swatches = await legend.locator(".graph-legend-swatch").evaluateAll((spans) => spans.map((s) => `${getComputedStyle(s).borderTopColor} ${getComputedStyle(s).borderTopStyle}`));
  expect(new Set(swatches).size).toBe(10);
  expect(swatches.slice(8).every((s) => s.endsWith("dashed"))).toBe(true);
  await page.screenshot({ path: "test-results/large-leaderboard.png" });

  // More teams than the screen holds: the board scrolls through them by itself, after a pause at the top.
  const board = page.getByTestId("projector-board");
  await expect(board).toHaveAttribute("data-autoscroll", "true");
  const heights = await page.getByTestId("projector-row").evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
  expect(heights).toHaveLength(50);
  for (const height of heights) expect(height).toBeGreaterThanOrEqual(55);
  const start = await board.evaluate((el) => el.scrollTop);
  await expect.poll(() => board.evaluate((el) => el.scrollTop), { timeout: 15_000 }).not.toBe(start);
  await expect.poll(() => board.evaluate((el) => el.scrollTop), { timeout: 15_000 }).toBeGreaterThan(20);
  // With reduced motion it turns a whole page at once instead of gliding.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.reload();
  await expect(board).toHaveAttribute("data-autoscroll", "true");
  await page.waitForTimeout(5000);
  expect(await board.evaluate((el) => el.scrollTop)).toBe(0);
  await expect.poll(() => board.evaluate((el) => el.scrollTop), { timeout: 15_000 }).toBeGreaterThan(0);
  expect(await board.evaluate((el) => el.scrollTop === Math.min(el.clientHeight, el.scrollHeight - el.clientHeight))).toBe(true);
  await page.emulateMedia({ reducedMotion: null });

  // On a phone: the countdown whole and labelled, the board and the graph each the full width.
  await setConfig("end_time", Math.floor(Date.now() / 1000) + 7 * 3600);
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    const countdown = page.getByTestId("projector-header").getByTestId("projector-clock");
    await expect(countdown.getByText("Ends in")).toBeVisible();
    await expect(countdown).toBeInViewport({ ratio: 1 });
    const value = countdown.getByTestId("projector-clock-value");
    expect(await value.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await expect(graph.locator("svg path").first()).toBeAttached();
    for (const part of [page.getByRole("table", { name: "Leaderboard" }), graph]) {
      const box = (await part.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      // The page's 16px padding on each side, no more.
      expect(box.width).toBeGreaterThanOrEqual(390 - 2 * 16 - 1);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await page.screenshot({ path: "test-results/large-leaderboard-phone.png", fullPage: true });
  } finally {
    await setConfig("end_time", null);
  }
});

test("on a phone the leaderboard fits the window and the graph's legend shows every competitor", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/leaderboard");
  await expect(page.getByRole("table", { name: "Teams" }).getByRole("row").nth(1)).toBeVisible();
  await expect(page.getByRole("img", { name: "Score over time of the top ten" }).locator("svg path").first()).toBeAttached();
  // No pages of legend: every name of the top ten is on screen (wrapped), none cut off.
  const legend = page.getByTestId("graph-legend").getByRole("button");
  await expect(legend).toHaveCount(10);
  for (const box of await legend.evaluateAll((items) => items.map((i) => i.getBoundingClientRect().toJSON() as DOMRect))) {
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(390);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  // A legend entry hides and shows its competitor's line.
  await legend.first().click();
  await expect(legend.first()).toHaveAttribute("aria-pressed", "false");
  await legend.first().click();
  await expect(legend.first()).toHaveAttribute("aria-pressed", "true");
  await page.screenshot({ path: "test-results/leaderboard-phone.png", fullPage: true });
});
