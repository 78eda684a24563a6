import { expect, test } from "@playwright/test";
import { database, seedUser, setConfig, signIn, unique } from "./support/db.ts";

test.afterEach(async () => {
  await setConfig("enable_team_leave", false);
  await setConfig("enable_teams", true);
});

test("create a team, join it from a second browser, transfer ownership, leave", async ({ browser }) => {
  const captain = await seedUser();
  const recruit = await seedUser();
  const teamName = unique("Crew");

  const captainContext = await browser.newContext();
  const captainPage = await captainContext.newPage();
  await signIn(captainPage, captain);
  await captainPage.goto("/team/create");
  await captainPage.getByRole("button", { name: "Create team" }).click();
  await expect(captainPage.getByText("Team name missing")).toBeVisible();
  await expect(captainPage.getByText("Secret too short")).toBeVisible();
  await captainPage.getByLabel("Team name").fill(teamName);
  await captainPage.getByLabel("Team secret").fill("open-sesame-42");
  await captainPage.getByRole("button", { name: "Create team" }).click();
  await expect(captainPage.getByRole("heading", { level: 1, name: teamName })).toBeVisible();
  await expect(captainPage).toHaveURL(/\/team\/\d+$/);

  // A second player, in a browser of their own, joins with the secret.
  const recruitContext = await browser.newContext();
  const recruitPage = await recruitContext.newPage();
  await signIn(recruitPage, recruit);
  await recruitPage.goto("/team/join");
  await recruitPage.getByLabel("Team name").fill(teamName.toUpperCase());
  await recruitPage.getByLabel("Team secret").fill("wrong-secret");
  await recruitPage.getByRole("button", { name: "Join team" }).click();
  await expect(recruitPage.getByRole("alert").filter({ hasText: "Incorrect team secret." })).toBeVisible();
  await recruitPage.getByLabel("Team secret").fill("open-sesame-42");
  await recruitPage.getByRole("button", { name: "Join team" }).click();
  await expect(recruitPage.getByRole("heading", { level: 1, name: teamName })).toBeVisible();
  const members = recruitPage.getByRole("table", { name: "Members" });
  await expect(members.getByRole("link", { name: captain.username })).toBeVisible();
  await expect(members.getByRole("link", { name: recruit.username })).toBeVisible();
  // Tabs move with the arrow keys.
  await recruitPage.getByRole("tab", { name: "Members" }).focus();
  await recruitPage.keyboard.press("ArrowRight");
  await expect(recruitPage.getByRole("tab", { name: "Solves" })).toHaveAttribute("aria-selected", "true");
  await expect(recruitPage.getByText("No solves yet.")).toBeVisible();
  await recruitPage.keyboard.press("ArrowLeft");
  await expect(recruitPage.getByRole("tab", { name: "Members" })).toHaveAttribute("aria-selected", "true");
  // Only the captain may edit: the recruit sees the form locked.
  await recruitPage.getByRole("tab", { name: "Manage" }).click();
  await expect(recruitPage.getByText("Only the captain can edit the team.")).toBeVisible();
  await expect(recruitPage.getByLabel("Team name")).toBeDisabled();

  // The captain hands the team over by clicking the recruit and confirming.
  await captainPage.goto("/team/me");
  await captainPage.getByRole("tab", { name: "Manage" }).click();
  await captainPage.getByLabel("Description").fill("We capture flags.");
  await captainPage.getByRole("button", { name: "Save" }).click();
  await expect(captainPage.getByText("Team updated")).toBeVisible();
  await captainPage.getByRole("button", { name: `Transfer: ${recruit.username}` }).click();
  const dialog = captainPage.getByRole("dialog", { name: "Transfer ownership?" });
  await expect(dialog).toContainText(`Make ${recruit.username} the captain of ${teamName}?`);
  await captainPage.screenshot({ path: test.info().outputPath("teams-transfer-dialog.png") });
  await dialog.getByRole("button", { name: "Transfer" }).click();
  await expect(captainPage.getByText(`Transfered ownership to ${recruit.username}`)).toBeVisible();
  await expect(captainPage.getByText("Only the captain can edit the team.")).toBeVisible();
  const { rows } = await database().query<{ owner_id: number; description: string }>("SELECT owner_id, description FROM teams WHERE name = $1", [teamName]);
  expect(rows[0]).toEqual({ owner_id: recruit.id, description: "We capture flags." });

  // With leaving enabled, the former captain leaves.
  await setConfig("enable_team_leave", true);
  await captainPage.reload();
  await captainPage.getByRole("tab", { name: "Manage" }).click();
  await captainPage.getByRole("button", { name: "Leave team" }).click();
  await captainPage.getByRole("dialog", { name: "Leave the team?" }).getByRole("button", { name: "Leave team" }).click();
  await expect(captainPage.getByText("You left the team")).toBeVisible();
  await expect(captainPage).toHaveURL(/\/welcome$/);
  const after = await database().query<{ team_id: number | null }>("SELECT team_id FROM users WHERE id = $1", [captain.id]);
  expect(after.rows[0]!.team_id).toBeNull();

  await captainContext.close();
  await recruitContext.close();
});

test("team pages redirect home with teams off, and the lists drop the team column", async ({ page }) => {
  const user = await seedUser();
  await signIn(page, user);
  await setConfig("enable_teams", false);
  try {
    // Home itself sends a signed-in player on to /campaign.
    await page.goto("/team/create");
    await expect(page).toHaveURL(/\/(campaign)?$/);
    await page.goto("/teams");
    await expect(page).toHaveURL(/\/(campaign)?$/);
    await page.goto(`/users`);
    await expect(page.getByRole("columnheader", { name: "Name" })).toBeVisible();
    await expect(page.getByRole("columnheader", { name: "Team" })).toHaveCount(0);
  } finally {
    await setConfig("enable_teams", true);
  }
});

test("teams list: ordered by name, searchable, paged with load more", async ({ page }) => {
  const prefix = unique("zz");
  const db = database();
  for (let i = 0; i < 55; i += 1) {
    await db.query("INSERT INTO teams (name, password) VALUES ($1, 'list-secret')", [`${prefix}-${String(i).padStart(2, "0")}`]);
  }
  await page.goto("/teams");
  await page.getByLabel("Search teams").fill(prefix);
  const table = page.getByRole("table", { name: "Teams" });
  await expect(table.getByRole("row")).toHaveCount(51);
  await expect(table.getByRole("row").nth(1)).toContainText(`${prefix}-00`);
  await page.getByRole("button", { name: /Load more/ }).click();
  await expect(table.getByRole("row")).toHaveCount(56);
  await expect(page.getByRole("button", { name: /Load more/ })).toHaveCount(0);
  await page.getByLabel("Search teams").fill(`${prefix}-nothing`);
  await expect(page.getByText("No results found.")).toBeVisible();
});

test("the create page looks right on a phone, in the dark", async ({ page }) => {
  const user = await seedUser();
  await signIn(page, user);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.addInitScript(() => window.localStorage.setItem("flagship.color-scheme", "dark"));
  await page.goto("/team/create");
  await expect(page.getByRole("heading", { name: "Create a team" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("teams-create-phone-dark.png"), fullPage: true });
});

test("welcome offers a team to a player without one; settings show the team and members cards", async ({ page }) => {
  const user = await seedUser();
  await signIn(page, user);
  await page.goto("/welcome");
  const offer = page.getByTestId("welcome-team-offer");
  await expect(offer.getByRole("link", { name: "Create a team" })).toBeVisible();
  await offer.getByRole("link", { name: "Join a team" }).click();
  await expect(page).toHaveURL(/\/team\/join$/);

  await page.goto("/settings");
  await expect(page.getByTestId("team-card")).toContainText("Create a team or join one");
  const name = unique("Settled");
  await page.goto("/team/create");
  await page.getByLabel("Team name").fill(name);
  await page.getByLabel("Team secret").fill("settings-secret");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await page.goto("/settings");
  await expect(page.getByTestId("team-card").getByLabel("Team name")).toHaveValue(name);
  await expect(page.getByTestId("members-card")).toContainText(user.username);
  await page.screenshot({ path: test.info().outputPath("settings-team-cards.png"), fullPage: true });

  // With a team, the welcome page moves the player on to the challenges.
  await page.goto("/welcome");
  await expect(page).toHaveURL(/\/campaign$/);
});
