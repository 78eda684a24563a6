import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { database, seedUser, signIn, unique } from "./support/db.ts";

// Groups are global: whatever this journey creates it removes, so other journeys see one board.
const created: string[] = [];
test.afterEach(async () => {
  if (created.length > 0) await database().query(`DELETE FROM leaderboard_groups WHERE name = ANY($1)`, [created.splice(0)]);
});

/** axe on what this feature draws: the page's main content (not the shared footer), or given parts. */
async function noAxeViolations(page: Page, scopes: string[] = ["#main"]) {
  let builder = new AxeBuilder({ page }).exclude("footer");
  for (const scope of scopes) builder = builder.include(scope);
  const results = await builder.analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("leaderboard groups: staff define them, a team picks one, the leaderboard gets a tab per group", async ({ page, browser }) => {
  // Two browsers, axe twice and a dozen page loads: under the whole suite's load it has run past 60 s.
  test.setTimeout(120_000);
  const staff = await seedUser({ isStaff: true });
  const students = unique("Students");
  const sponsors = unique("Sponsors");
  created.push(students, sponsors);

  // Staff add two groups; only the first is offered to teams and has a board of its own.
  await signIn(page, staff);
  await page.goto("/admin/leaderboard-groups");
  await expect(page.getByRole("heading", { level: 1, name: "Leaderboard groups" })).toBeVisible();
  await page.getByRole("button", { name: "Add group" }).click();
  const dialog = page.getByRole("dialog", { name: "New group" });
  await dialog.getByLabel("Name").fill(students);
  await dialog.getByLabel("Description").fill("Enrolled at a school");
  await noAxeViolations(page, ['[role="dialog"]']);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Group created")).toBeVisible();
  await page.getByRole("button", { name: "Add group" }).click();
  await dialog.getByLabel("Name").fill(students.toUpperCase());
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("A group with that name already exists.")).toBeVisible();
  await dialog.getByLabel("Name").fill(sponsors);
  await dialog.getByRole("switch", { name: "Teams may pick it" }).click({ force: true });
  await dialog.getByRole("switch", { name: "Own leaderboard tab" }).click({ force: true });
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toHaveCount(0);
  const table = page.getByRole("table", { name: "Leaderboard groups" });
  await expect(table.getByRole("row").filter({ hasText: sponsors })).toContainText("NoNo");
  await noAxeViolations(page);
  await page.screenshot({ path: "test-results/groups-admin.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/groups-admin-phone.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // A player creates a team in Students: the picker offers only the self-assignable group.
  const player = await seedUser();
  const context = await browser.newContext();
  const playerPage = await context.newPage();
  await signIn(playerPage, player);
  await playerPage.goto("/team/create");
  const teamName = unique("Pupils");
  await playerPage.getByLabel("Team name").fill(teamName);
  await playerPage.getByLabel("Team secret").fill("open-sesame-42");
  await playerPage.getByRole("combobox", { name: "Leaderboard group" }).click();
  await expect(playerPage.getByRole("option", { name: sponsors })).toHaveCount(0);
  await playerPage.getByRole("option", { name: students }).click();
  await noAxeViolations(playerPage, [".mantine-Select-root"]);
  await playerPage.getByRole("button", { name: "Create team" }).click();
  await expect(playerPage.getByRole("heading", { level: 1, name: teamName })).toBeVisible();
  const { rows } = await database().query<{ name: string }>(`SELECT g.name::text AS name FROM teams t JOIN leaderboard_groups g ON g.id = t.leaderboard_group_id WHERE t.name = $1`, [teamName]);
  expect(rows).toEqual([{ name: students }]);

  // The leaderboard has a tab for Students (not for Sponsors) with that group's board only.
  await playerPage.goto("/leaderboard");
  await expect(playerPage.getByRole("tab", { name: sponsors })).toHaveCount(0);
  await playerPage.getByRole("tab", { name: students }).click();
  await expect(playerPage).toHaveURL(/#group-\d+$/);
  const board = playerPage.getByRole("table", { name: "Teams" });
  await expect(board.getByRole("row")).toHaveCount(2);
  await expect(board.getByRole("row").nth(1)).toContainText(teamName);
  await noAxeViolations(playerPage, ['[role="tablist"]', '[role="tabpanel"]']);
  await playerPage.screenshot({ path: "test-results/groups-leaderboard.png", fullPage: true });
  await playerPage.reload();
  await expect(playerPage.getByRole("tab", { name: students })).toHaveAttribute("aria-selected", "true");
  await context.close();

  // Staff delete Students: the tab goes, the team stays on the main board.
  await page.reload();
  await page.getByRole("button", { name: `Delete ${students}` }).click();
  await page.getByRole("dialog", { name: "Delete the group?" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Group deleted")).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: students })).toHaveCount(0);
});

test("players are sent away from the groups screen", async ({ page }) => {
  const player = await seedUser();
  await signIn(page, player);
  await page.goto("/admin/leaderboard-groups");
  await expect(page).toHaveURL(/\/(campaign)?$/);
});
