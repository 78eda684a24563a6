import { expect, type Page, test } from "@playwright/test";
import { seedCategory, seedChallenge } from "./support/challenges.ts";
import { expectAccessible } from "./support/axe.ts";
import { seedUser, signIn, unique } from "./support/db.ts";

/**
 * Unsaved changes in the configuration and the challenge editor are not dropped silently: a link,
 * the back button or closing the tab asks first; staying keeps them, a save lets the page go.
 */

const leaveDialog = (page: Page) => page.getByRole("dialog", { name: "Leave without saving?" });

/** Closing the tab with its beforeunload handler run: true when the browser asked first. */
async function closeAsks(page: Page): Promise<boolean> {
  const asked = new Promise<boolean>((resolve) => {
    page.once("dialog", (dialog) => {
      resolve(dialog.type() === "beforeunload");
      void dialog.dismiss();
    });
    setTimeout(() => resolve(false), 5000);
  });
  await page.close({ runBeforeUnload: true });
  return asked;
}

test("configuration: the sidebar, the back button and closing the tab ask before unsaved changes go", async ({ page, context }) => {
  const staff = await seedUser({ isStaff: true });
  await signIn(page, staff);
  await page.goto("/admin/statistics");
  // Within the app, so the back button is the app's history, not a page load.
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Configuration", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/config$/);
  const prefix = page.getByRole("textbox", { name: "Flag prefix" });
  await prefix.fill("walkabout");
  await expect(page.getByTestId("config-save-bar")).toBeVisible();

  // A sidebar link: the question, and staying keeps the change.
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Leaderboard" }).first().click();
  await expect(leaveDialog(page)).toBeVisible();
  await expectAccessible(page);
  await leaveDialog(page).getByRole("button", { name: "Stay and keep editing" }).click();
  await expect(leaveDialog(page)).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\/config$/);
  await expect(prefix).toHaveValue("walkabout");

  // The back button asks too; leaving goes where it was asked to.
  await page.goBack();
  await expect(leaveDialog(page)).toBeVisible();
  await leaveDialog(page).getByRole("button", { name: "Leave without saving" }).click();
  await expect(page).toHaveURL(/\/admin\/statistics$/);

  // Closing the tab: the browser's own question.
  const tab = await context.newPage();
  await tab.goto("/admin/config");
  await tab.getByRole("textbox", { name: "Flag prefix" }).fill("walkabout");
  // A page must have been interacted with for the browser to ask; the fill was that.
  expect(await closeAsks(tab)).toBe(true);
});

test("challenge editor: leaving with unsaved changes asks, a saved editor leaves freely", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Leave "), contained_type: "jeopardy" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: "Lantern", score: 50, flag_metadata: { flag: "flag{x}" } });
  await signIn(page, staff);
  await page.goto(`/campaign/${category.slug}/${challenge.slug}#edit`);
  const edit = page.getByRole("form", { name: "Edit Lantern" });
  await edit.getByRole("textbox", { name: "Score", exact: true }).fill("75");
  await expect(edit.getByText("Unsaved changes")).toBeVisible();

  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Leaderboard" }).first().click();
  await expect(leaveDialog(page)).toBeVisible();
  await leaveDialog(page).getByRole("button", { name: "Stay and keep editing" }).click();
  await expect(page).toHaveURL(/#edit$/);
  await expect(edit.getByRole("textbox", { name: "Score", exact: true })).toHaveValue("75");

  await edit.getByRole("link", { name: "Stop editing" }).click();
  await expect(leaveDialog(page)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(leaveDialog(page)).toHaveCount(0);

  // Saved, nothing is asked.
  await edit.getByRole("button", { name: "Save challenge" }).click();
  await expect(page.getByText("Challenge saved")).toBeVisible();
  await edit.getByRole("link", { name: "Stop editing" }).click();
  await expect(leaveDialog(page)).toHaveCount(0);
  await expect(page.getByTestId("challenge-points")).toHaveText("75 points");
});
