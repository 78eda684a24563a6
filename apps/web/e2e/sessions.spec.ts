import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/axe.ts";
import { seedUser, signIn } from "./support/db.ts";

const PORT = Number(process.env.E2E_PORT ?? 8181);

test("an impersonation ends when the staff member signs out elsewhere: the tab is told and signed out, the server answering 401, never 500", async ({ page }) => {
  const staff = await seedUser({ isStaff: true });
  const player = await seedUser();
  const failures: { url: string; status: number }[] = [];
  page.on("response", (response) => {
    if (response.url().includes("/trpc/") && response.status() >= 400) failures.push({ url: response.url(), status: response.status() });
  });

  await signIn(page, staff);
  await page.goto(`/profile/${player.id}`);
  await expect(page.getByRole("heading", { name: player.username })).toBeVisible();
  await page.getByRole("button", { name: "Impersonate" }).click();
  await page.getByTestId("confirm-impersonate").click();
  await expect(page.getByTestId("impersonation-banner")).toContainText(`You are viewing the site as ${player.username}.`);

  // What the tab tells its reader is noted as it appears (a toast goes after a few seconds).
  await page.evaluate(() => {
    const seen = window as unknown as { told?: boolean };
    new MutationObserver(() => {
      if (document.body.textContent?.includes("Your session has ended. Please log in again.")) seen.told = true;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });

  // The staff member signs out on another device: the sign-in this impersonation began from ends.
  const logout = await fetch(`http://127.0.0.1:${PORT}/api/v2/auth/logout/`, { method: "POST", headers: { authorization: `Token ${staff.token}` } });
  expect(logout.status).toBe(200);

  // The tab is told at its next call: moving within the app makes one (a reload would re-run
  // signIn's script and put the staff token back), unless a call of its own has told it already and
  // it has signed out, taking the Settings link away.
  const navigation = page.getByRole("navigation", { name: "Main navigation" });
  const settings = navigation.getByRole("link", { name: "Settings" });
  await settings.click({ timeout: 10_000 }).catch(async (error: unknown) => {
    if ((await settings.count()) > 0) throw error;
  });
  await expect.poll(() => page.evaluate(() => (window as unknown as { told?: boolean }).told === true)).toBe(true);
  await expect(page.getByTestId("impersonation-banner")).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Log in" })).toBeVisible();
  expect(failures.length).toBeGreaterThan(0);
  expect(failures.filter((f) => f.status !== 401)).toEqual([]);
  await expectAccessible(page);
});
