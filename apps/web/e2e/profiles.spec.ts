import { expect, test } from "@playwright/test";
import { expectChartTextInside } from "./support/charts.ts";
import { database, seedUser, signIn, unique } from "./support/db.ts";

/** A player with a team, solves in two categories, an incorrect attempt and score history. */
async function seedProfile() {
  const db = database();
  const user = await seedUser();
  const team = await db.query<{ id: number }>("INSERT INTO teams (name, password, owner_id) VALUES ($1, 'profile-secret', $2) RETURNING id", [unique("Team"), user.id]);
  const teamId = team.rows[0]!.id;
  await db.query("UPDATE users SET team_id = $1, bio = 'I like heap exploitation.', twitter = 'pwner', is_verified = true, state_actor = true WHERE id = $2", [teamId, user.id]);
  const challenges: { id: number; name: string }[] = [];
  for (const [category, challenge, points, hour] of [
    ["Web exploitation", "Cookie Monster", 100, 9],
    ["Cryptography", "Caesar's Salad", 250, 11],
  ] as const) {
    const cat = await db.query<{ id: number }>("INSERT INTO categories (name) VALUES ($1) RETURNING id", [unique(category)]);
    const name = unique(challenge);
    const chal = await db.query<{ id: number }>(
      "INSERT INTO challenges (category_id, name, score, current_score, updated_at) VALUES ($1, $2, $3, $3, now()) RETURNING id",
      [cat.rows[0]!.id, name, points],
    );
    const at = new Date(Date.UTC(2030, 0, 1, hour));
    const solve = await db.query<{ id: number }>("INSERT INTO solves (team_id, user_id, challenge_id, points, timestamp) VALUES ($1, $2, $3, $4, $5) RETURNING id", [
      teamId,
      user.id,
      chal.rows[0]!.id,
      points,
      at,
    ]);
    await db.query("INSERT INTO score_records (user_id, team_id, solve_id, reason, points, timestamp) VALUES ($1, $2, $3, 'solve', $4, $5)", [
      user.id,
      teamId,
      solve.rows[0]!.id,
      points,
      at,
    ]);
    challenges.push({ id: chal.rows[0]!.id, name });
  }
  await db.query("INSERT INTO incorrect_attempts (team_id, user_id, challenge_id, flag) VALUES ($1, $2, $3, 'flag{nope}')", [teamId, user.id, challenges[0]!.id]);
  await db.query("UPDATE users SET points = 350, leaderboard_points = 350 WHERE id = $1", [user.id]);
  await db.query("UPDATE teams SET points = 350, leaderboard_points = 350 WHERE id = $1", [teamId]);
  return { user, teamId, challenges };
}

test("a profile with its badges, links, charts and solves", async ({ page }) => {
  const { user, challenges } = await seedProfile();
  const viewer = await seedUser();
  await signIn(page, viewer);
  await page.goto(`/profile/${user.id}`);
  await expect(page.getByRole("heading", { level: 1, name: user.username })).toBeVisible();
  await expect(page.getByText("Staff", { exact: true })).toBeVisible();
  await expect(page.getByText("State Actor", { exact: true })).toBeVisible();
  await expect(page.getByText("Admin", { exact: true })).toHaveCount(0);
  await expect(page.getByText("I like heap exploitation.")).toBeVisible();
  await expect(page.getByRole("link", { name: "@pwner" })).toHaveAttribute("href", "https://twitter.com/pwner");

  // Each chart draws an SVG once echarts has loaded.
  for (const id of ["profile-attempts-chart", "profile-category-chart", "profile-score-chart"]) {
    await expect(page.getByTestId(id).locator("svg").first()).toBeVisible();
  }
  await expect(page.getByTestId("profile-attempts-chart")).toContainText("Correct");

  const table = page.getByRole("table", { name: "Solves" });
  await expect(table.getByRole("columnheader")).toHaveText(["Challenge", "Points", "Time"]);
  await expect(table.getByRole("row", { name: new RegExp(challenges[1]!.name) })).toContainText("250");
  await page.screenshot({ path: test.info().outputPath("profile-light.png"), fullPage: true });

  await page.getByRole("button", { name: "Toggle dark mode" }).click();
  await expect(page.getByTestId("profile-score-chart").locator("svg").first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("profile-dark.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath("profile-phone-dark.png"), fullPage: true });
  // No chart's labels run off its card on a phone (the categories are named in a legend beside
  // their pie there, not around it), in either scheme.
  const charts = ["Solve attempts", "Points by category", "Score over time"].map((name) => page.getByRole("img", { name, exact: true }));
  for (const chart of charts) await expectChartTextInside(chart);
  await page.getByRole("button", { name: "Toggle dark mode" }).click();
  for (const chart of charts) await expectChartTextInside(chart);
  // On a phone the solves fit their card: every header and time whole in view, nothing scrolled away.
  await table.scrollIntoViewIfNeeded();
  for (const cell of [...(await table.getByRole("columnheader").all()), ...(await table.getByRole("cell", { name: /2030/ }).all())]) {
    await expect(cell).toBeInViewport({ ratio: 1 });
  }
  expect(await table.evaluate((el) => el.getBoundingClientRect().right <= el.closest(".mantine-Card-root")!.getBoundingClientRect().right)).toBe(true);
});

test("'me' is the signed-in player and /profile goes there", async ({ page }) => {
  const { user, teamId } = await seedProfile();
  await signIn(page, user);
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/profile\/me$/);
  await expect(page.getByRole("heading", { level: 1, name: user.username })).toBeVisible();
  await page.getByRole("link", { name: /^Team/ }).first().isVisible();
  await page.goto("/team/me");
  await expect(page.getByTestId("team-category-chart")).toHaveCount(0);
  await page.getByRole("tab", { name: "Stats" }).click();
  for (const id of ["team-attempts-chart", "team-category-chart", "team-score-chart"]) {
    await expect(page.getByTestId(id).locator("svg").first()).toBeVisible();
  }
  await expect(page).toHaveURL(/\/team\/me$/);
  await page.screenshot({ path: test.info().outputPath("team-stats-light.png"), fullPage: true });
  expect(teamId).toBeGreaterThan(0);
});

test("a player without a team going to /team/me lands on /welcome", async ({ page }) => {
  const user = await seedUser();
  await signIn(page, user);
  await page.goto("/team/me");
  await expect(page).toHaveURL(/\/welcome$/);
});

test("users list: by username with the team column, searchable; invisible users and staff accounts hidden", async ({ page }) => {
  const prefix = unique("uu");
  const db = database();
  const team = await db.query<{ id: number }>("INSERT INTO teams (name, password) VALUES ($1, 'x-secret-1') RETURNING id", [`${prefix}-team`]);
  await seedUser({ username: `${prefix}-bravo`, teamId: team.rows[0]!.id });
  await seedUser({ username: `${prefix}-alpha` });
  const hidden = await seedUser({ username: `${prefix}-charlie` });
  await db.query("UPDATE users SET is_visible = false WHERE id = $1", [hidden.id]);
  // Staff run the event: they are not listed among the players.
  await seedUser({ username: `${prefix}-delta`, isStaff: true });
  await page.goto("/users");
  await page.getByLabel("Search users").fill(prefix);
  const table = page.getByRole("table", { name: "Users" });
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table.getByRole("row").nth(1)).toContainText(`${prefix}-alpha`);
  await expect(table.getByRole("row").nth(2)).toContainText(`${prefix}-team`);
  await expect(table).not.toContainText(`${prefix}-charlie`);
  await expect(table).not.toContainText(`${prefix}-delta`);
  await page.screenshot({ path: test.info().outputPath("users-list.png"), fullPage: true });
});
