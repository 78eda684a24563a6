import { expect, test } from "@playwright/test";
import { seedUser } from "./support/db.ts";

test("content pages: a default page says it is not set until staff write it", async ({ page, request }) => {
  await page.goto("/privacy");
  await expect(page.getByRole("heading", { name: "Privacy Policy" })).toBeVisible();
  await expect(page.getByText("This page has not been set yet.")).toBeVisible();

  const staff = await seedUser({ isStaff: true });
  const res = await request.post("/api/v2/pages/", {
    headers: { authorization: `Token ${staff.token}` },
    data: { url: "/rules", title: "Event rules", content: "No attacking the **infrastructure**. [Contact](mailto:ctf@example.test) <script>alert(1)</script>" },
  });
  expect(res.status()).toBe(201);
  await page.goto("/rules");
  await expect(page.getByRole("heading", { name: "Event rules" })).toBeVisible();
  await expect(page.locator("article strong")).toHaveText("infrastructure");
  await expect(page.getByRole("link", { name: "Contact" })).toHaveAttribute("href", "mailto:ctf@example.test");
  await expect(page.locator("article script")).toHaveCount(0);
});

test("markdown whose renderer fails to arrive once is drawn all the same: the page asks for it again", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const url = `/blip-${Date.now()}`;
  const res = await request.post("/api/v2/pages/", { headers: { authorization: `Token ${staff.token}` }, data: { url, title: "After a blip", content: "Drawn **after all**." } });
  expect(res.status()).toBe(201);
  let refused = 0;
  await page.route(/\/assets\/MarkdownRenderer-[\w-]+\.js$/, (route) => (refused++ === 0 ? route.abort("connectionreset") : route.continue()));
  await page.goto(url);
  await expect(page.locator("article strong")).toHaveText("after all");
  expect(refused).toBe(2);
  await expect(page.getByText("This page failed to load.")).toHaveCount(0);
});
