import { expect, test } from "@playwright/test";
import { expectNoAxeViolations, shootBoth, toggleDark } from "./support/axe.ts";
import { database, seedUser, setConfig, signIn } from "./support/db.ts";

async function configValue(key: string): Promise<unknown> {
  const { rows } = await database().query<{ value: unknown }>("SELECT value FROM config WHERE key = $1", [key]);
  return rows[0]?.value ?? null;
}

test("staff build a theme with a live preview and save it for everyone; players keep their own light or dark choice", async ({ page, browser }) => {
  // Two browsers, several reloads and a saved theme: past 60 s once under the whole suite's load.
  test.setTimeout(120_000);
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

test("a hard-to-read accent is warned of when picked, and a readable shade of it applies in the dark scheme too", async ({ page }) => {
  const staff = await seedUser({ isStaff: true });
  const before = await configValue("theme");
  await signIn(page, staff);
  try {
    await setConfig("theme", null);
    await page.goto("/admin/theme");
    const builder = page.getByRole("region", { name: "Theme builder" });
    await expect(builder).toBeVisible();
    // The built-in teal reads: no warning.
    await expect(builder.getByTestId("accent-warning")).toHaveCount(0);
    await builder.getByTestId("theme-primary").fill("#ffd700");
    await builder.getByRole("heading", { name: "Theme builder" }).click();
    const warning = builder.getByTestId("accent-warning");
    await expect(warning).toContainText("1.2:1");
    await expect(warning).toContainText("readable shade");
    await builder.getByRole("button", { name: "Save theme" }).click();
    await expect(page.getByText("Theme saved")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("event-theme")).toBeAttached();

    // The current sidebar entry and the filled buttons in both schemes: derived from the gold (not
    // the built-in teal), and readable.
    const save = builder.getByRole("button", { name: "Save theme" });
    const looks = async () => ({
      button: await save.evaluate((b) => getComputedStyle(b).backgroundColor),
      ...(await page.evaluate(() => {
        const root = getComputedStyle(document.documentElement);
        const active = [...document.querySelectorAll("#app-navbar [data-active]")].at(-1)!;
        return {
          scheme: document.documentElement.dataset.mantineColorScheme,
          primary: root.getPropertyValue("--fs-primary").trim(),
          active: getComputedStyle(active).color,
          sidebarAccent: root.getPropertyValue("--fs-sidebar-accent").trim(),
        };
      })),
    });
    const hexToRgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;
    const light = await looks();
    expect(light.primary).toBe("#ffd700");
    expect(light.active).toBe(hexToRgb(light.sidebarAccent));
    expect(light.active).not.toBe("rgb(94, 234, 212)");
    await expectNoAxeViolations(page);
    await toggleDark(page);
    const dark = await looks();
    expect(dark.scheme).toBe("dark");
    expect(dark.primary).toBe("#ffd700");
    expect(dark.active).toBe(light.active);
    // The filled button is the gold darkened under its white text, not the built-in dark teal.
    expect(dark.button).toBe(light.button);
    const [r, g, b] = dark.button.match(/\d+/g)!.map(Number);
    expect(r).toBeGreaterThan(g! * 0.9);
    expect(b).toBeLessThan(r! / 2);
    await page.screenshot({ path: "test-results/theme-gold-dark.png" });
    await expectNoAxeViolations(page);
    await toggleDark(page);
  } finally {
    await setConfig("theme", before);
  }
});
