import { expect, type Locator, type Page, test } from "@playwright/test";
import { expectAccessible, screenshots, toggleDark } from "./support/axe.ts";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { database, seedUser, setConfig, signIn, unique } from "./support/db.ts";

/** One product throughout: profiles by name, links that look like links, words for time, groups for staff. */

const PHONE = { width: 390, height: 844 };
const HOUR = 3_600_000;

/** A player in a team with two solves `hoursAgo` before now and no wrong flag. */
async function seedSolver(username: string, hoursAgo: [number, number]) {
  const db = database();
  const team = await seedTeam(1, { usernames: [username] });
  const user = team.members[0]!;
  const category = await db.query<{ id: number }>("INSERT INTO categories (name) VALUES ($1) RETURNING id", [unique("Axis ")]);
  let total = 0;
  for (const [i, ago] of hoursAgo.entries()) {
    const points = 100 * (i + 1);
    total += points;
    const at = new Date(Date.now() - ago * HOUR);
    const challenge = await db.query<{ id: number }>(
      "INSERT INTO challenges (category_id, name, score, current_score, updated_at) VALUES ($1, $2, $3, $3, now()) RETURNING id",
      [category.rows[0]!.id, unique("Axis challenge "), points],
    );
    const solve = await db.query<{ id: number }>("INSERT INTO solves (team_id, user_id, challenge_id, points, timestamp) VALUES ($1, $2, $3, $4, $5) RETURNING id", [
      team.id,
      user.id,
      challenge.rows[0]!.id,
      points,
      at,
    ]);
    await db.query("INSERT INTO score_records (user_id, team_id, solve_id, reason, points, timestamp) VALUES ($1, $2, $3, 'solve', $4, $5)", [user.id, team.id, solve.rows[0]!.id, points, at]);
  }
  await db.query("UPDATE users SET points = $1, leaderboard_points = $1 WHERE id = $2", [total, user.id]);
  await db.query("UPDATE teams SET points = $1, leaderboard_points = $1 WHERE id = $2", [total, team.id]);
  return { user, team };
}

/** The texts an echarts chart draws, once it has drawn. */
async function chartTexts(chart: Locator): Promise<string[]> {
  await expect(chart.locator("svg text").first()).toBeAttached();
  return chart.locator("svg text").evaluateAll((texts) => texts.map((t) => t.textContent ?? "").filter((t) => t !== ""));
}

test("a profile and a team answer by name as by number", async ({ page }) => {
  const name = unique("Ada");
  const { user, team } = await seedSolver(name, [2, 1]);
  const viewer = await seedUser();
  await signIn(page, viewer);
  await page.goto(`/profile/${name.toLowerCase()}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await page.goto(`/profile/${user.id}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await page.goto(`/team/${encodeURIComponent(team.name)}`);
  await expect(page.getByRole("heading", { level: 1, name: team.name })).toBeVisible();
  await page.goto(`/profile/${unique("nobody")}`);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("a visitor following a profile link from /users is told why they must log in, and lands on it after", async ({ page }) => {
  const name = unique("Grace");
  const { user, team } = await seedSolver(name, [2, 1]);
  await page.goto("/users");
  await page.getByLabel("Search users").fill(name);
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/login\\?next=%2Fprofile%2F${user.id}$`));
  await expect(page.getByTestId("login-reason")).toHaveText(`Log in to see ${name}'s profile.`);
  await expectAccessible(page);
  await screenshots(page, "login-reason");
  await page.getByLabel("Username or email").fill(user.username);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/${user.id}$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  // A team by name names it too.
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
  await page.goto(`/team/${encodeURIComponent(team.name)}`);
  await expect(page.getByTestId("login-reason")).toHaveText(`Log in to see the team ${team.name}.`);
});

test("leaderboard names look like links: the link colour, underlined under the pointer and the keyboard", async ({ page }) => {
  await seedSolver(unique("Lin"), [2, 1]);
  await page.goto("/leaderboard#user");
  const link = page.getByTestId("board-name").first();
  await expect(link).toBeVisible();
  const points = page.getByRole("table", { name: "Users" }).locator("tbody tr").first().locator("td").last();
  const style = (target: Locator) => target.evaluate((el) => ({ color: getComputedStyle(el).color, line: getComputedStyle(el).textDecorationLine }));
  const [plain, anchor] = [await style(points), await style(link)];
  expect(anchor.color).not.toBe(plain.color);
  expect(anchor.line).not.toContain("underline");
  await link.hover();
  await expect.poll(async () => (await style(link)).line).toContain("underline");
  await page.mouse.move(0, 0);
  await link.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(link).toBeFocused();
  await expect.poll(async () => (await style(link)).line).toContain("underline");
  await expectAccessible(page);
  await toggleDark(page);
  await expectAccessible(page);
  await toggleDark(page);
});

test("the countdown reads in words and is labelled on a phone", async ({ page }) => {
  await setConfig("end_time", Math.floor(Date.now() / 1000) + 9 * 3600 - 25);
  try {
    await page.setViewportSize(PHONE);
    await page.goto("/leaderboard");
    const countdown = page.getByRole("timer", { name: /^Ends in 8 hours 59 minutes$/ });
    await expect(countdown).toBeVisible();
    await expect(countdown.getByTestId("countdown-time")).toHaveText("8 h 59 m");
    const label = countdown.getByTestId("countdown-label");
    await expect(label).toHaveText("Ends in");
    await expect(label).toBeInViewport({ ratio: 1 });
    await expect(countdown).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await expectAccessible(page);
    await page.screenshot({ path: "test-results/countdown-phone.png" });
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(countdown.getByTestId("countdown-label")).toBeVisible();
    await page.screenshot({ path: "test-results/countdown-desktop.png" });
  } finally {
    await setConfig("end_time", null);
  }
});

test("profile charts span the event on the leaderboard's axis, without milliseconds or empty slices", async ({ browser }) => {
  const now = Math.floor(Date.now() / 1000);
  // The browser in a zone where it is about noon now, so the event's six hours never cross a
  // midnight (whose tick the axis labels with the date rather than a time).
  const offset = ((12 - new Date().getUTCHours() + 36) % 24) - 12;
  const context = await browser.newContext({ timezoneId: offset === 0 ? "UTC" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}` });
  const page = await context.newPage();
  await setConfig("start_time", now - 6 * 3600);
  try {
    // Two solves half an hour apart: an axis spanning only them would read minutes, not hours.
    const { user } = await seedSolver(unique("Axis"), [1, 0.5]);
    await signIn(page, user);
    await page.goto("/profile/me");
    const score = await chartTexts(page.getByRole("img", { name: "Score over time", exact: true }));
    expect(score.filter((t) => /\d:\d\d:\d\d \d{3}|\.\d{3}/.test(t))).toEqual([]);
    const minutes = score.filter((t) => /^\d\d:\d\d$/.test(t)).map((t) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3)));
    expect(minutes.length).toBeGreaterThan(1);
    const span = (minutes.at(-1)! - minutes[0]! + 1440) % 1440;
    // Six hours of event, not the half hour between the solves.
    expect(span).toBeGreaterThanOrEqual(180);

    // Two correct attempts, no wrong one: one slice, labelled 2, and no label (or line) for a 0.
    const attempts = await chartTexts(page.getByRole("img", { name: "Solve attempts", exact: true }));
    expect(attempts).toContain("2");
    expect(attempts).not.toContain("0");
    expect(attempts).toContain("Correct");
    await screenshots(page, "profile-charts");
  } finally {
    await setConfig("start_time", null);
    await context.close();
  }
});

async function openAdminMenu(page: Page): Promise<Locator> {
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  await nav.getByText("Admin", { exact: true }).click();
  return nav;
}

test("the staff console is grouped in the sidebar, and members show points, verification and joining date", async ({ page }) => {
  const staff = await seedUser({ isStaff: true });
  const name = unique("Dana");
  const { user } = await seedSolver(name, [2, 1]);
  await database().query("UPDATE users SET email_verified = false WHERE id = $1", [user.id]);
  await signIn(page, staff);
  await page.goto("/leaderboard");
  const nav = await openAdminMenu(page);
  const groups = nav.getByRole("group");
  await expect(groups).toHaveCount(5);
  for (const [group, pages] of [
    ["Event", ["Configuration", "Pre-Event Check", "Announcements", "Statistics"]],
    ["People", ["Members", "Teams", "Invites", "Outbox"]],
    ["Content", ["Pages", "Challenge Overview", "Import/Export"]],
    ["Challenge servers", ["Challenge Servers"]],
    ["Integrity", ["Audit Log"]],
  ] as const) {
    const part = nav.getByRole("group", { name: group, exact: true });
    for (const label of pages) await expect(part.getByRole("link", { name: label, exact: true })).toBeVisible();
  }
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: "test-results/staff-sidebar-desktop.png", fullPage: true });

  await nav.getByRole("group", { name: "People", exact: true }).getByRole("link", { name: "Members", exact: true }).click();
  await page.getByRole("searchbox", { name: "Search members" }).fill(name);
  const table = page.getByTestId("search-results");
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await expect(table.getByRole("columnheader")).toHaveText(["Username", "Email", "Team", "Points", "Email verified", "Joined", "Failed sign-ins", "Flags"]);
  const cells = table.locator("tbody tr").first().locator("td");
  await expect(cells.nth(3)).toHaveText("300");
  await expect(cells.nth(4)).toHaveText("No");
  await expect(cells.nth(5)).toHaveText(new RegExp(String(new Date().getFullYear())));
  await expectAccessible(page);
  await screenshots(page, "admin-members-columns");
});

test("/debug/ui has no axe violations, light or dark", async ({ page }) => {
  await page.goto("/debug/ui");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectAccessible(page);
  await toggleDark(page);
  await expectAccessible(page);
  await screenshots(page, "debug-ui-dark");
  await toggleDark(page);
  await screenshots(page, "debug-ui-light");
});

test("a code block that scrolls sideways on a phone is reached by Tab", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam(1);
  const category = await seedCategory(request, staff, { name: unique("Code "), contained_type: "jeopardy" });
  const longLine = `curl -s https://example.org/${"a".repeat(120)} | base64 -d`;
  const challenge = await seedChallenge(request, staff, {
    category: category.id,
    name: unique("Wide Code "),
    score: 100,
    flag_type: "plaintext",
    flag_metadata: { flag: "flag{wide}" },
    description: `Run this:\n\n\`\`\`bash\n${longLine}\n\`\`\``,
  });
  await signIn(page, team.members[0]!);
  await page.setViewportSize(PHONE);
  await page.goto(`/campaign/${category.slug}/${challenge.slug}`);
  const block = page.getByRole("group", { name: "Code (bash)" });
  await expect(block).toBeVisible();
  expect(await block.evaluate((pre) => pre.scrollWidth > pre.clientWidth)).toBe(true);
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await expect
    .poll(async () => {
      await page.keyboard.press("Tab");
      return block.evaluate((pre) => pre === document.activeElement);
    }, { intervals: [0], timeout: 20_000 })
    .toBe(true);
  // Focused, the arrow keys scroll it.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => block.evaluate((pre) => pre.scrollLeft)).toBeGreaterThan(0);
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/code-block-phone.png" });
});

test("the password field's focus ring is the one every other field has", async ({ page }) => {
  await page.goto("/login");
  const username = page.getByLabel("Username or email");
  const password = page.getByLabel("Password", { exact: true });
  await username.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(username).toBeFocused();
  const ring = (box: Locator) =>
    box.evaluate((el) => {
      const s = getComputedStyle(el);
      return { outline: `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`, offset: s.outlineOffset, border: s.borderColor, shadow: s.boxShadow };
    });
  // Mantine eases the border colour in: measure once no transition is running.
  const still = () => page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running" || !Number.isFinite(Number(a.effect?.getComputedTiming().endTime))));
  await still();
  const other = await ring(username);
  expect(other.outline).toMatch(/^solid 2px/);
  await page.keyboard.press("Tab");
  await expect(password).toBeFocused();
  // The password's box (around the input and its show button) carries the ring; the input none.
  const box = page.locator(".mantine-Input-input", { has: password });
  await still();
  expect(await ring(box)).toEqual(other);
  expect(await password.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("none");
});
