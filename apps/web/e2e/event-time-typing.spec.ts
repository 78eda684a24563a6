import { expect, type Page, test } from "@playwright/test";
import { expectAccessible } from "./support/axe.ts";
import { database, seedUser, setConfig, signIn } from "./support/db.ts";

/**
 * Typed times in the configuration's event time fields are the times saved, however they are
 * typed: a click into the "00" of a field, an hour alone, minutes after the hour, on a phone too;
 * minutes without an hour are refused under the fields.
 */

const PHONE = { width: 390, height: 844 };

async function savedStart(): Promise<string | null> {
  const value = (await database().query<{ value: unknown }>(`SELECT value FROM config WHERE key = 'start_time'`)).rows[0]?.value ?? null;
  if (value === null) return null;
  // Shown as the browser shows it (the test's browser runs in the machine's zone, as Node does).
  const d = new Date(Number(value) * 1000);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** Opens "Event starts" on the configuration page (emptied or set to 08:00 first) and picks the 15th. */
async function openStart(page: Page, start: "empty" | "08:00", pickDay = true) {
  await setConfig("start_time", start === "empty" ? null : Math.floor(new Date(2031, 2, 10, 8, 0).getTime() / 1000));
  await page.goto("/admin/config");
  await expect(page.getByRole("heading", { level: 1, name: "Configuration" })).toBeVisible();
  await page.getByRole("button", { name: "Event starts", exact: true }).click();
  const picker = page.getByRole("dialog").last();
  if (pickDay) await picker.getByRole("button", { name: /^15 / }).first().click();
  return {
    picker,
    hours: picker.getByRole("spinbutton", { name: "Hours" }),
    minutes: picker.getByRole("spinbutton", { name: "Minutes" }),
    check: picker.getByRole("button", { name: "Use this time" }),
  };
}

async function saveAndExpect(page: Page, time: string): Promise<void> {
  await expect(page.getByRole("button", { name: "Event starts", exact: true })).toContainText(time);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Config updated")).toBeVisible();
  expect(await savedStart()).toBe(time);
}

for (const [layout, size] of [["desktop", { width: 1440, height: 900 }], ["phone", PHONE]] as const) {
  test.describe(`on a ${layout}`, () => {
    test.use({ viewport: size });
    test.afterEach(async () => setConfig("start_time", null));

    test("an empty field: click into the hours, type 18, click into the minutes, type 30", async ({ page }) => {
      await signIn(page, await seedUser({ isStaff: true }));
      const { hours, minutes, check } = await openStart(page, "empty");
      await hours.click();
      await page.keyboard.type("18");
      await minutes.click();
      await page.keyboard.type("30");
      await expect(hours).toHaveValue("18");
      await expect(minutes).toHaveValue("30");
      await check.click();
      await saveAndExpect(page, "18:30");
    });

    test("a set field showing 17:--: the hour alone is saved on the hour", async ({ page }) => {
      await signIn(page, await seedUser({ isStaff: true }));
      const { hours, minutes, check } = await openStart(page, "08:00", false);
      await minutes.click();
      await page.keyboard.press("Backspace");
      await hours.click();
      await page.keyboard.type("17");
      await expect(hours).toHaveValue("17");
      await expect(minutes).toHaveValue("");
      await check.click();
      await saveAndExpect(page, "17:00");
    });

    test("an empty field: an hour alone, no day picked, confirmed with Enter", async ({ page }) => {
      await signIn(page, await seedUser({ isStaff: true }));
      const { hours, minutes } = await openStart(page, "empty", false);
      await hours.click();
      await page.keyboard.type("18");
      await expect(minutes).toHaveValue("");
      await page.keyboard.press("Enter");
      await saveAndExpect(page, "18:00");
    });

    test("minutes without an hour are refused under the fields, then the hour is typed", async ({ page }) => {
      await signIn(page, await seedUser({ isStaff: true }));
      const { picker, hours, minutes, check } = await openStart(page, "empty", false);
      await minutes.click();
      await page.keyboard.type("45");
      await check.click();
      await expect(picker.getByText("Type the hour too.")).toBeVisible();
      await expect(hours).toBeFocused();
      await expectAccessible(page);
      await page.screenshot({ path: `test-results/event-time-missing-hour-${layout}.png` });
      await page.keyboard.type("9");
      await expect(picker.getByText("Type the hour too.")).toHaveCount(0);
      await check.click();
      await saveAndExpect(page, "09:45");
    });
  });
}
