import { expect, type Locator, type Page, test } from "@playwright/test";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { seedUser, unique } from "./support/db.ts";

/** Presses Tab until `target` has focus (at most `limit` times), as a keyboard user would. */
async function tabTo(page: Page, target: Locator, { limit = 60, back = false } = {}): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  await expect(target).toBeFocused();
}

/** The focused element shows a ring: an outline (or a box shadow) is drawn around it. */
async function expectFocusRing(target: Locator): Promise<void> {
  const ring = await target.evaluate((el) => {
    const style = getComputedStyle(el);
    return { outline: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0, shadow: style.boxShadow !== "none" };
  });
  expect(ring.outline || ring.shadow).toBe(true);
}

test("keyboard only: log in, open a challenge, use and dismiss a hint, submit a flag, read the board", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  const player = team.members[0]!;
  const first = await seedCategory(request, staff, { name: unique("Keys "), contained_type: "jeopardy" });
  await seedCategory(request, staff, { name: unique("Other "), contained_type: "jeopardy" });
  await seedChallenge(request, staff, {
    category: first.id,
    name: "Typed Door",
    score: 150,
    flag_metadata: { flag: "flag{keys}" },
    hints: [{ name: "Tap", penalty: 5, text: "Try the keyboard" }],
  });
  await seedChallenge(request, staff, { category: first.id, name: "Broken Lock", score: 50, flag_metadata: { flag: "flag{fixing}" }, maintenance: true });

  await page.goto("/login");
  const username = page.getByLabel("Username or email");
  await expect(username).toBeFocused();
  await expectFocusRing(username);
  await page.keyboard.type(player.username);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
  await page.keyboard.type(player.password);
  await page.keyboard.press("Enter");

  // Every sidebar item is reachable; the Challenges entry (closed on arrival at the home page a
  // signed-in player lands on) opens and closes its submenu from the keyboard.
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  const challenges = nav.getByRole("button", { name: "Challenges" });
  await tabTo(page, challenges);
  await expectFocusRing(challenges);
  await expect(challenges).toHaveAttribute("aria-expanded", "false");
  await page.keyboard.press("Enter");
  await expect(challenges).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Enter");
  await expect(challenges).toHaveAttribute("aria-expanded", "false");
  await page.keyboard.press("Enter");
  await expect(challenges).toHaveAttribute("aria-expanded", "true");
  const categoryLink = nav.getByRole("link", { name: first.name });
  await tabTo(page, categoryLink);
  await page.keyboard.press("Enter");

  // After a route change, focus is on the new page's heading and the page is announced.
  const heading = page.getByRole("heading", { level: 1, name: first.name });
  await expect(heading).toBeFocused();
  await expect(page.getByTestId("route-announcer")).toHaveText(`${first.name} page`);

  // A challenge under maintenance says so on its card.
  await expect(page.getByRole("button", { name: /Broken Lock/ }).getByTestId("maintenance-badge")).toHaveText("Maintenance");
  await expect(page.getByRole("button", { name: /Broken Lock/ })).toHaveAttribute("data-maintenance", "true");

  const card = page.getByRole("button", { name: /Typed Door/ });
  await tabTo(page, card);
  await expectFocusRing(card);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Typed Door" })).toBeFocused();

  // A dialog gives focus back to the button that opened it when it closes.
  const useHint = page.getByRole("button", { name: "Use hint" });
  await tabTo(page, useHint);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Use this hint?" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(useHint).toBeFocused();

  const flag = page.getByTestId("flag-input");
  await tabTo(page, flag);
  await expectFocusRing(flag);
  await page.keyboard.type("flag{keys}");
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Flag correct!" })).toBeVisible();
  const next = dialog.getByRole("button", { name: "Continue" });
  await tabTo(page, next);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("already-solved")).toBeVisible();

  await tabTo(page, nav.getByRole("link", { name: "Leaderboard" }), { back: true });
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Leaderboard" })).toBeFocused();
  await expect(page.getByRole("row").filter({ hasText: team.name })).toContainText("150");
});
