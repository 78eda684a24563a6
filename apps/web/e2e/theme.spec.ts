import { expect, test } from "@playwright/test";
import { expectNoAxeViolations, shootBoth, toggleDark } from "./support/axe.ts";
import { database, seedUser, setConfig, signIn } from "./support/db.ts";

async function configValue(key: string): Promise<unknown> {
  const { rows } = await database().query<{ value: unknown }>("SELECT value FROM config WHERE key = $1", [key]);
  return rows[0]?.value ?? null;
}

test("staff build a theme with a live preview and save it for everyone; players keep their own light or dark choice", async ({ page, browser }) => {
  const staff = await seedUser({ isStaff: true });
  const player = await seedUser();
  const before = { theme: await configValue("theme"), start: await configValue("start_time") };
  await signIn(page, staff);
  try {
    await setConfig("theme", null);
    await page.goto("/debug/theme");
    const builder = page.getByRole("region", { name: "Theme builder" });
    await expect(builder).toBeVisible();
    // With no theme saved the sidebar is the built-in ink, and the sidebar control says Dark; the
    // light default, the built-in look, keeps both.
    const sidebarType = builder.getByRole("radiogroup", { name: "Sidebar" });
    const navbarFill = () => page.evaluate(() => getComputedStyle(document.getElementById("app-navbar")!).backgroundColor);
    await expect(sidebarType.getByRole("radio", { name: "Dark" })).toBeChecked();
    expect(await navbarFill()).toBe("rgb(11, 18, 32)");
    await builder.getByRole("button", { name: "Light default" }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.sidebar)).toBe("dark");
    await expect(sidebarType.getByRole("radio", { name: "Dark" })).toBeChecked();
    expect(await navbarFill()).toBe("rgb(11, 18, 32)");
    await shootBoth(page, "theme-builder");

    // The dark preset previews at once, before anything is saved.
    await builder.getByRole("button", { name: "Dark preset" }).click();
    await expect(page.getByTestId("event-theme")).toBeAttached();
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--fs-primary").trim())).toBe("#2dd4bf");
    expect(await configValue("theme")).toEqual(before.theme);
    // The preset's light teal carries white button text only darkened to 4.5:1: the builder (its
    // filled Save button, links, light badges) passes axe in both schemes with it applied.
    await expectNoAxeViolations(page);
    await toggleDark(page);
    await expectNoAxeViolations(page);
    await toggleDark(page);

    await builder.getByTestId("theme-primary").fill("#8a2be2");
    await builder.getByText("Primary colour").click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.sidebar)).toBe("primary");
    await builder.getByRole("button", { name: "Save theme" }).click();
    await expect(page.getByText("Theme saved")).toBeVisible();
    expect(await configValue("theme")).toMatchObject({ primary: "#8a2be2", dark: "#101827", light: "#e2e8f0", sidebarType: "primary" });

    // Another browser: the saved theme applies; the player's own dark choice swaps the page colours.
    // A context of its own, as axe needs.
    const otherContext = await browser.newContext();
    const other = await otherContext.newPage();
    await signIn(other, player);
    await other.goto("/leaderboard");
    await expect.poll(() => other.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--fs-primary").trim())).toBe("#8a2be2");
    await expect.poll(() => other.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(226, 232, 240)");
    await other.getByRole("button", { name: "Toggle dark mode" }).click();
    await expect.poll(() => other.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(16, 24, 39)");
    await other.screenshot({ path: "test-results/theme-player-dark.png" });
    await expectNoAxeViolations(other);
    await otherContext.close();

    // The synthwave countdown is this browser's choice.
    await setConfig("start_time", Math.floor(Date.now() / 1000) + 86_400 * 3);
    await page.reload();
    await page.getByTestId("synthwave-toggle").click();
    await expect(page.getByTestId("countdown").locator(".countdown-synthwave")).toBeVisible();

    await page.getByRole("button", { name: "Use built-in theme" }).click();
    await expect.poll(() => configValue("theme")).toBeNull();
  } finally {
    await setConfig("theme", before.theme);
    await setConfig("start_time", before.start);
  }
});
