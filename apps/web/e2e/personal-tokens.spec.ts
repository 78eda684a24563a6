import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/axe.ts";
import { seedUser, signIn, unique } from "./support/db.ts";

test("staff create a personal access token in settings, see it once, use it over REST and revoke it", async ({ page, request }) => {
  // Two axe passes (desktop and phone) and a reload.
  test.slow();
  const staff = await seedUser({ isStaff: true });
  await signIn(page, staff);
  await page.goto("/settings");
  const card = page.getByTestId("settings-tokens");
  // The settings route is a lazy chunk: on a busy machine its first load takes a while.
  await expect(card.getByRole("heading", { name: "Personal access tokens" })).toBeVisible({ timeout: 30_000 });
  await expect(card.getByText("No personal access tokens yet.")).toBeVisible();

  await card.getByRole("button", { name: "Create token" }).click();
  await expect(card.getByText("This field is required")).toBeVisible();
  const name = unique("sync");
  await card.getByLabel("Name").fill(name);
  await card.getByLabel("Expires after (days)").fill("7");
  await card.getByRole("button", { name: "Create token" }).click();
  const shown = card.getByTestId("new-token");
  await expect(shown).toContainText("shown only this once");
  const token = (await shown.locator("pre, code").first().innerText()).trim();
  expect(token).toMatch(/^[0-9a-f]{64}$/);
  await expect(card.getByTestId("token-list").getByRole("cell", { name, exact: true })).toBeVisible();
  await expectAccessible(page);

  // The key works as a REST token for staff writes.
  const used = await request.get("/api/v2/auth/tokens/", { headers: { authorization: `Token ${token}` } });
  expect(used.status()).toBe(200);
  expect(((await used.json()) as { d: { name: string }[] }).d.map((t) => t.name)).toContain(name);

  // Shown once: after a reload the list has it, the key is gone.
  await page.reload();
  await expect(card.getByTestId("token-list").getByRole("cell", { name, exact: true })).toBeVisible();
  await expect(card.getByTestId("new-token")).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 720 });

  await card.getByRole("button", { name: `Revoke ${name}` }).click();
  await expect(page.getByText(`Token “${name}” revoked.`)).toBeVisible();
  await expect(card.getByText("No personal access tokens yet.")).toBeVisible();
  expect((await request.get("/api/v2/auth/tokens/", { headers: { authorization: `Token ${token}` } })).status()).toBe(401);
});

test("players have no personal access tokens card", async ({ page }) => {
  const player = await seedUser();
  await signIn(page, player);
  await page.goto("/settings");
  await expect(page.getByTestId("settings-profile")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("settings-tokens")).toHaveCount(0);
});
