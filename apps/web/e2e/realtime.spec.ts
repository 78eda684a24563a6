import { expect, test } from "@playwright/test";
import { seedUser, setConfig, signIn } from "./support/db.ts";

test("an announcement posted by staff appears live, and a closed one stays hidden", async ({ browser, request }) => {
  const staff = await seedUser({ isStaff: true });
  const player = await seedUser();
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, player);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.waitForTimeout(500);

  const res = await request.post("/api/v2/announcements/", {
    headers: { authorization: `Token ${staff.token}` },
    data: { title: "Live announcement", body: "The **web** challenges are back." },
  });
  expect(res.status()).toBe(201);

  // The popup and the announcement list both show it without a reload.
  const region = page.getByRole("region", { name: "Announcements" }).or(page.locator("section[aria-label=Announcements]"));
  await expect(region.getByText("Live announcement")).toBeVisible();
  await page.getByRole("button", { name: "Hide announcement" }).first().click();
  await expect(region.getByText("Live announcement")).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("section[aria-label=Announcements]").getByText("Live announcement")).toHaveCount(0);
  await context.close();
});

test("the countdown ticks toward the start", async ({ page }) => {
  await setConfig("start_time", Math.floor(Date.now() / 1000) + 3 * 86_400 + 5);
  try {
    await page.goto("/leaderboard");
    const countdown = page.getByTestId("countdown");
    await expect(countdown).toContainText(/3:00:00:0\d|2:23:59:\d\d/);
    const first = await countdown.textContent();
    await expect.poll(async () => countdown.textContent(), { timeout: 4000 }).not.toBe(first);
  } finally {
    await setConfig("start_time", null);
  }
});
