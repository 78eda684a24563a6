import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { expectAccessible } from "./support/axe.ts";

/**
 * A new organiser's first hour, through `npm start` on an empty embedded PostgreSQL: the first
 * visitor is led to the setup, sets the event up (pickers for the dates, choices for the rest, a
 * logo), lands on the staff console, writes a category and a challenge with forms, and a player
 * signs up, forms a team and solves it. Nowhere is JSON, a date format or a REST call typed.
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
const PORT = Number(process.env.E2E_PORT ?? 8181) + 3;
const BASE = `http://127.0.0.1:${PORT}`;
const ORGANISER = { username: "harbourmaster", email: "harbourmaster@example.test", password: "Tide-Lantern-Gull-Rope-58" };
const PLAYER = { username: "deckhand", email: "deckhand@example.test", password: "Anchor-Kelp-Compass-Moss-73" };
// A 1x1 teal PNG.
const LOGO = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAEGQH/O1xPJAAAAABJRU5ErkJggg==", "base64");

test.describe.configure({ mode: "serial", timeout: 300_000 });

let server: ChildProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), "flagship-first-run-"));
  // npm start as an operator runs it: the build (already done, so cached), then the server on its
  // own embedded PostgreSQL under DATA_DIR.
  server = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", DATABASE_URL: "", REDIS_URL: "", SMTP_URL: "" },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  const deadline = Date.now() + 180_000;
  for (;;) {
    const ready = await fetch(`${BASE}/readyz`).then((r) => r.ok, () => false);
    if (ready) break;
    if (server.exitCode !== null) throw new Error(`npm start exited with ${server.exitCode}`);
    if (Date.now() > deadline) throw new Error("npm start did not become ready in 180 s");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    process.kill(-server.pid, "SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** The day `offset` days from today in the calendar's own label ("28 November 2026"). */
function dayLabel(offset: number): string {
  const day = new Date(Date.now() + offset * 86_400_000);
  return `${day.getDate()} ${day.toLocaleString("en-GB", { month: "long" })} ${day.getFullYear()}`;
}

/** Picks a day (today + offset) in a date-time picker's calendar and confirms it, paging months as needed. */
async function pickDay(page: Page, field: string, offset: number): Promise<void> {
  await page.getByTestId(field).click();
  // The field's own picker: the one before it may still be on screen as it fades out.
  const picker = page.getByRole("dialog").last();
  const day = picker.getByRole("button", { name: dayLabel(offset), exact: true });
  // The calendar is on screen before its month is read (on a busy machine it comes a moment later).
  await expect(picker.getByRole("button", { name: /previous month/i })).toBeVisible();
  for (let pages = 0; !(await day.first().isVisible()) && pages < 3; pages++) {
    await picker.getByRole("button", { name: offset < 0 ? /previous month/i : /next month/i }).click();
  }
  await day.first().click();
  await picker.getByRole("button", { name: "Use this time" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
}

/**
 * Opens a setup date-time field's picker, picks a day (today + offset; none: the time falls on
 * today) and types the time into the hours and then the minutes (none: the hour alone).
 */
async function typeTime(page: Page, field: string, offset: number | null, hours: string, minutes?: string): Promise<Locator> {
  await page.getByTestId(field).click();
  const picker = page.getByRole("dialog").last();
  if (offset !== null) {
    const day = picker.getByRole("button", { name: dayLabel(offset), exact: true });
    await expect(picker.getByRole("button", { name: /previous month/i })).toBeVisible();
    for (let pages = 0; !(await day.first().isVisible()) && pages < 3; pages++) {
      await picker.getByRole("button", { name: offset < 0 ? /previous month/i : /next month/i }).click();
    }
    await day.first().click();
  }
  const hoursInput = picker.getByRole("spinbutton", { name: "Hours" });
  const minutesInput = picker.getByRole("spinbutton", { name: "Minutes" });
  if (hours !== "") {
    await hoursInput.click();
    await page.keyboard.type(hours);
  }
  if (minutes !== undefined) {
    await minutesInput.click();
    await page.keyboard.type(minutes);
  }
  return picker;
}

/** A time of day (today + offset) in epoch seconds, in the browser's zone (the machine's, as Node's). */
function localEpoch(offset: number, hours: number, minutes: number): number {
  const day = new Date(Date.now() + offset * 86_400_000);
  return Math.floor(new Date(day.getFullYear(), day.getMonth(), day.getDate(), hours, minutes).getTime() / 1000);
}

/** Desktop and phone screenshots of the setup (a bare page: no sidebar to wait for). */
async function shoot(page: Page, name: string): Promise<void> {
  for (const [size, width, height] of [["desktop", 1440, 900], ["phone", 390, 844]] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `test-results/first-run-${name}-${size}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

async function nextStep(page: Page, heading: string): Promise<void> {
  await page.getByRole("button", { name: "Next", exact: true }).click();
  await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
}

test("a new organiser sets the event up in the browser and a player solves the first challenge", async ({ browser }) => {
  const page = await (await browser.newContext({ baseURL: BASE })).newPage();

  await test.step("the first visitor is led to the setup", async () => {
    await page.goto("/");
    await expect(page).toHaveURL(`${BASE}/setup`);
    await expect(page.getByRole("heading", { level: 1, name: "Set up your event" })).toBeVisible();
    await expect(page.getByTestId("setup-progress")).toHaveText("Step 1 of 5: Event");
    await expectAccessible(page);
  });

  await test.step("event: a name is required, then name and description", async () => {
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await expect(page.getByText("Give your event a name.")).toBeVisible();
    await page.getByLabel("Event name").fill("Harbour CTF");
    await page.getByLabel("Description").fill("Two days of puzzles by the sea. **Bring a friend.**");
    await nextStep(page, "Schedule");
  });

  await test.step("schedule: picked, shown in local time, UTC and length; an end before the start is refused", async () => {
    await pickDay(page, "event-start", 1);
    await pickDay(page, "event-end", -1);
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await expect(page.getByText("The end must come after the start.").first()).toBeVisible();
    await expectAccessible(page);
    await shoot(page, "schedule-error");
    await pickDay(page, "event-start", -1);
    await pickDay(page, "event-end", 2);
    await expect(page.getByTestId("event-start-preview")).toContainText("UTC");
    await expect(page.getByTestId("event-end-preview")).toContainText("3 days");
  });

  await test.step("schedule: typed times are the times kept, on a phone too; minutes without an hour are refused", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    // Both fields emptied first: typing starts from nothing, as on a fresh setup.
    await page.getByRole("button", { name: "Clear Start" }).click();
    await page.getByRole("button", { name: "Clear End" }).click();
    await expect(page.getByTestId("event-start-preview")).toHaveCount(0);
    // Typed into the hours, then the minutes.
    let picker = await typeTime(page, "event-start", -1, "18", "30");
    await picker.getByRole("button", { name: "Use this time" }).click();
    await expect(page.getByTestId("event-start")).toContainText("18:30");
    // Minutes alone in the empty field (no day picked yet, so no hour shown) are refused in the
    // picker, visibly, and nothing is kept until the hour comes; the time then falls on today.
    picker = await typeTime(page, "event-end", null, "", "45");
    await picker.getByRole("button", { name: "Use this time" }).click();
    await expect(picker.getByText("Type the hour too.")).toBeVisible();
    await expect(picker.getByRole("spinbutton", { name: "Hours" })).toBeFocused();
    await expectAccessible(page);
    await page.screenshot({ path: "test-results/first-run-schedule-missing-hour-phone.png" });
    await page.keyboard.type("9");
    await picker.getByRole("button", { name: "Use this time" }).click();
    await expect(page.getByTestId("event-end")).toContainText("09:45");
    // Emptied again, a later day and an hour alone, confirmed with Enter: kept on the hour.
    await page.getByRole("button", { name: "Clear End" }).click();
    picker = await typeTime(page, "event-end", 2, "21");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("event-end")).toContainText("21:00");
    await page.setViewportSize({ width: 1280, height: 720 });
    await nextStep(page, "Players");
  });

  await test.step("players: teams of up to four, open sign-up", async () => {
    await expect(page.getByRole("radio", { name: /Your organisation's sign-in/ })).toBeDisabled();
    await page.getByLabel("Players per team").fill("4");
    await page.getByRole("radio", { name: /^Open/ }).check();
    await expectAccessible(page);
    await shoot(page, "players");
    await nextStep(page, "Look");
  });

  await test.step("look: a colour and a logo, previewed", async () => {
    await page.getByLabel("Accent colour").fill("#1d4ed8");
    await page.locator('input[type="file"]').setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: LOGO });
    await expect(page.getByTestId("logo-preview")).toBeVisible();
    await page.locator('input[type="file"]').setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await expect(page.getByText("Use a PNG, JPEG, WebP or SVG image.")).toBeVisible();
    await expectAccessible(page);
    await shoot(page, "look");
    await nextStep(page, "Your account");
  });

  await test.step("account: the first staff member, and the event is created", async () => {
    await page.getByLabel("Username").fill(ORGANISER.username);
    await page.getByLabel("Email").fill(ORGANISER.email);
    await page.getByLabel(/^Password/).fill(ORGANISER.password);
    await page.getByLabel("Repeat password").fill("something else");
    await page.getByRole("button", { name: "Create the event" }).click();
    await expect(page.getByText("Passwords must match")).toBeVisible();
    await page.getByLabel("Repeat password").fill(ORGANISER.password);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Create the event" }).click();
    await expect(page).toHaveURL(/\/admin\/check$/);
    await expect(page.getByText("Your event is set up.")).toBeVisible();
    // The schedule saved is exactly the typed one.
    const config = (await (await page.request.get("/api/v2/config/")).json()) as { d: { start_time: number; end_time: number } };
    expect(config.d.start_time).toBe(localEpoch(-1, 18, 30));
    expect(config.d.end_time).toBe(localEpoch(2, 21, 0));
    // The console's check says what is left: terms and privacy pages; the home page is written
    // (from the description), so it is not listed.
    await expect(page.getByText(/there are no terms of use/)).toBeVisible();
    await expect(page.getByText(/there is no privacy policy/)).toBeVisible();
    await expect(page.getByText(/home page is still the default/)).toHaveCount(0);
    await expectAccessible(page);
  });

  await test.step("the event carries its name, colour and logo", async () => {
    await expect(page.getByRole("banner").getByText("Harbour CTF")).toBeVisible();
    const logo = await page.request.get("/logo");
    expect(logo.headers()["content-type"]).toBe("image/png");
    expect(Buffer.from(await logo.body()).equals(LOGO)).toBe(true);
    const primary = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--fs-primary").trim());
    expect(primary).toBe("#1d4ed8");
    // The setup is done: a second visitor meets the event, not the setup.
    const visitor = await (await browser.newContext({ baseURL: BASE })).newPage();
    await visitor.goto("/setup");
    await expect(visitor.getByRole("heading", { level: 1, name: "This event is already set up" })).toBeVisible();
    await visitor.goto("/");
    await expect(visitor).toHaveURL(`${BASE}/`);
    await visitor.close();
  });

  await organiserWritesAChallenge(page);

  await test.step("a visitor's home page is the event's: its description, its category, its years", async () => {
    const visitor = await (await browser.newContext({ baseURL: BASE })).newPage();
    await visitor.goto("/");
    await expect(visitor.getByRole("heading", { level: 1, name: "Harbour CTF" })).toBeVisible();
    await expect(visitor.getByText("Two days of puzzles by the sea.")).toBeVisible();
    await expect(visitor.getByRole("link", { name: /Warm-up/ })).toBeVisible();
    await expect(visitor.getByText("open-source intelligence")).toHaveCount(0);
    await expect(visitor.getByTestId("footer-copyright")).toContainText(`${new Date(Date.now() - 86_400_000).getFullYear()}`);
    await expect(visitor.getByTestId("footer-copyright")).toContainText("Harbour CTF");
    await expectAccessible(visitor);
    await visitor.close();
  });

  await playerSolvesIt(browser);
});

/** The organiser writes the event's first category and challenge with forms. */
async function organiserWritesAChallenge(page: Page): Promise<void> {
  await test.step("the organiser writes a category and a challenge with forms", async () => {
    // The challenge overview of an event without challenges leads to the first category.
    await page.goto("/admin/allChallenges");
    await expect(page.getByText(/No challenges yet. Challenges live in categories/)).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("main").getByRole("link", { name: "New category" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New category" })).toBeVisible();
    await page.getByLabel("Name").fill("Warm-up");
    await page.getByRole("textbox", { name: "Description" }).fill("First steps on deck.");
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Warm-up" })).toBeVisible();

    await page.getByTestId("category-edit-bar").getByRole("link", { name: "New challenge" }).click();
    const form = page.getByRole("form", { name: /New challenge in/ });
    await form.getByRole("textbox", { name: "Name", exact: true }).fill("Lighthouse");
    await form.getByTestId("description-input").fill("The keeper left the flag in the **beam**.");
    await form.getByRole("textbox", { name: "Score", exact: true }).fill("100");
    await form.getByTestId("flag-value").fill("flag{beam}");
    await expectAccessible(page);
    await form.getByRole("button", { name: "Create challenge" }).click();
    await expect(page.getByRole("heading", { name: "Lighthouse" })).toBeVisible();
  });
}

/** A player signs up, forms a team and solves the challenge, and the board shows it. */
async function playerSolvesIt(browser: Browser): Promise<void> {
  await test.step("a player signs up (no terms to accept: none are written), forms a team and solves it", async () => {
    const page = await (await browser.newContext({ baseURL: BASE })).newPage();
    await page.goto("/register");
    await expect(page.getByRole("heading", { level: 1, name: "Create your account" })).toBeVisible();
    await expect(page.getByLabel("Username")).toBeVisible();
    await expect(page.getByRole("checkbox", { name: /terms/i })).toHaveCount(0);
    await page.getByLabel("Username").fill(PLAYER.username);
    await page.getByLabel("Email").fill(PLAYER.email);
    await page.getByLabel(/^Password/).fill(PLAYER.password);
    await page.getByLabel("Repeat password").fill(PLAYER.password);
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/welcome$/);

    await page.goto("/team/create");
    await page.getByLabel("Team name").fill("Lantern Crew");
    await page.getByLabel("Team secret").fill("keep-the-light-on");
    await page.getByRole("button", { name: "Create team" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Lantern Crew" })).toBeVisible();

    await page.goto("/campaign");
    await page.getByRole("link", { name: /Warm-up/ }).click();
    await page.getByRole("button", { name: /Lighthouse/ }).click();
    await page.getByTestId("flag-input").fill("flag{beam}");
    await page.getByRole("button", { name: "Submit" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Flag correct!" })).toBeVisible();
    await dialog.getByRole("button", { name: "Continue" }).click();

    await page.goto("/leaderboard");
    await expect(page.getByRole("row", { name: /Lantern Crew/ }).first()).toContainText("100");
  });
}
