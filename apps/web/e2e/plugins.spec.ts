import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe.ts";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { seedUser, signIn, unique } from "./support/db.ts";

test("the bundled multiple-choice plugin: staff author one in the editor and a player solves it", async ({ page, request, browser }) => {
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Quiz "), contained_type: "jeopardy" });
  await signIn(page, staff);
  await page.goto(`/campaign/${category.slug}/new`);
  const form = page.getByRole("form", { name: /New challenge in/ });
  await form.getByRole("textbox", { name: "Name", exact: true }).fill("Capital");
  await form.getByRole("combobox", { name: "Challenge type" }).click();
  await page.getByRole("option", { name: "Multiple choice" }).click();
  await form.getByLabel("Choices").fill("Paris\nLyon\nNice");
  await form.getByTestId("flag-value").fill("Paris");
  await form.getByRole("button", { name: "Create challenge" }).click();
  await expect(page).toHaveURL(/\/capital$/);

  const team = await seedTeam();
  const player = await browser.newPage();
  await signIn(player, team.members[0]!);
  await player.goto(`/campaign/${category.slug}/capital`);
  const submit = player.getByRole("button", { name: "Submit" });
  await expect(submit).toBeDisabled();
  await player.getByRole("radio", { name: "Lyon" }).check();
  await submit.click();
  await expect(player.getByTestId("flag-incorrect")).toContainText("Incorrect flag");
  await player.getByRole("radio", { name: "Paris" }).check();
  await submit.click();
  await expect(player.getByRole("dialog").getByRole("heading", { name: "Flag correct!" })).toBeVisible();
  await player.close();
});

test("an unknown challenge type shows the missing-renderer message instead of crashing", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Odd "), contained_type: "jeopardy" });
  await seedChallenge(request, staff, { category: category.id, name: "Quantum", challenge_type: "quantumCircuit", score: 100, flag_metadata: { flag: "flag{q}" } });
  const team = await seedTeam();
  await signIn(page, team.members[0]!);
  await page.goto(`/campaign/${category.slug}/quantum`);
  await expect(page.getByText("No renderer is installed for the challenge type 'quantumCircuit'.")).toBeVisible();
  await expect(page.getByText("Did you forget to install a plugin?")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("popups come from the popup registry; an unknown medal says so", async ({ page }) => {
  await page.goto("/debug/ui");
  await page.getByRole("button", { name: "Unknown medal popup" }).click();
  await expect(page.getByText("Unknown medal type")).toBeVisible();
  await page.getByRole("button", { name: "Medal popup", exact: true }).click();
  await expect(page.getByText("Gold medal")).toBeVisible();
});
