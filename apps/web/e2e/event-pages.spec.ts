import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, screenshots, toggleDark } from "./support/axe.ts";
import { seedCategory, seedChallenge } from "./support/challenges.ts";
import { database, seedUser, type SeededUser, setConfig, signIn, unique } from "./support/db.ts";

/** The event's own pages: its home page, the years in its footer, and the terms players accept. */

async function eventName(): Promise<string> {
  const { rows } = await database().query<{ value: string }>(`SELECT value FROM config WHERE key = 'event_name'`);
  return rows[0]?.value ?? "Flagship CTF";
}

async function asStaff(page: Page): Promise<SeededUser> {
  const staff = await seedUser({ isStaff: true });
  await signIn(page, staff);
  return staff;
}

const removePages = (...urls: string[]) => database().query(`DELETE FROM pages WHERE trim(both '/' from url) = ANY($1)`, [urls]);

test("a fresh event's home page comes from its settings; staff write their own under Admin → Pages and visitors see it with the real categories", async ({
  page,
  browser,
  request,
}) => {
  await removePages("");
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Forensics "), contained_type: "jeopardy", description: "Files that **tell** [stories](https://example.test)." });
  await seedChallenge(request, staff, { category: category.id, name: unique("Carved "), score: 100, flag_metadata: { flag: "flag{x}" } });
  const name = await eventName();
  // Over the new year, and over: the footer names both years, and no lock page stands in front.
  const start = Date.UTC(2025, 11, 30, 12) / 1000;
  const end = Date.UTC(2026, 0, 2, 12) / 1000;
  const visitor = await browser.newContext();
  const guest = await visitor.newPage();
  try {
    await setConfig("start_time", start);
    await setConfig("end_time", end);
    await guest.goto("/");
    await expect(guest.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(guest.getByText(`Welcome to ${name}, a capture-the-flag competition.`)).toBeVisible();
    await expect(guest.getByText(/^From .*2025.* to .*2026.*\.$/)).toBeVisible();
    await expect(guest.getByTestId("home-countdown")).toHaveText("The event has ended.");
    // No fixed copy about topics this event may not have.
    await expect(guest.getByText(/open-source intelligence|binary exploitation|Linux security/i)).toHaveCount(0);
    const card = guest.getByTestId("home-categories").getByRole("link", { name: new RegExp(category.name) });
    await expect(card).toHaveAttribute("href", `/campaign/${category.id}`);
    await expect(card).toContainText("1 challenge");
    // The description's Markdown is read as words, not shown as asterisks and brackets.
    await expect(card).toContainText("Files that tell stories.");
    await expect(guest.getByTestId("footer-copyright")).toHaveText(`© 2025 - 2026 ${name}`);
    await expectAccessible(guest);
    await screenshots(guest, "home-default");

    await signIn(page, staff);
    await page.goto("/admin/cms");
    const home = page.getByTestId("cms-home");
    await expect(home).toContainText("Default");
    await home.getByRole("button", { name: "Write the home page" }).click();
    // The editor starts from the default page, and says what each placeholder draws.
    const content = page.getByRole("textbox", { name: "Content (Markdown)" });
    await expect(content).toHaveValue(/^# \{\{event_name\}\}/);
    await expect(page.getByTestId("home-help")).toContainText("{{categories}}");
    await expect(page.getByRole("textbox", { name: "Address" })).toHaveCount(0);
    await content.fill("# Welcome to {{event_name}}\n\nOur **own** words, from {{start}}.\n\n{{categories}}\n\n{{actions}}");
    await page.getByRole("tab", { name: "Preview" }).click();
    await expect(page.getByTestId("markdown-preview").getByRole("heading", { level: 1 })).toHaveText(`Welcome to ${name}`);
    await expect(page.getByTestId("markdown-preview").getByRole("link", { name: new RegExp(category.name) })).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, "admin-cms-home");
    await page.getByRole("button", { name: "Save page" }).click();
    await expect(page.getByText("Page created")).toBeVisible();
    await expect(home).toContainText("Written");
    await expect(home.getByRole("button", { name: "Edit home page" })).toBeVisible();

    await guest.goto("/");
    await expect(guest.getByRole("heading", { level: 1, name: `Welcome to ${name}` })).toBeVisible();
    await expect(guest.locator("article strong")).toHaveText("own");
    await expect(guest.getByText(/^Our own words, from .*2025/)).toBeVisible();
    await expect(guest.getByTestId("home-countdown")).toHaveCount(0);
    await guest.getByTestId("home-categories").getByRole("link", { name: new RegExp(category.name) }).click();
    // Visitors are sent to log in on the way to the category.
    await expect(guest).toHaveURL(/\/login/);
    await guest.goto("/");
    await expect(guest.getByRole("heading", { level: 1, name: `Welcome to ${name}` })).toBeVisible();
    // The event is over: the actions offer logging in, no longer signing up.
    await expect(guest.getByTestId("home-actions").getByRole("link", { name: "Log in" })).toBeVisible();
    await expect(guest.getByRole("link", { name: "Sign up" })).toHaveCount(0);
    await expectAccessible(guest);
    await toggleDark(guest);
    await expectAccessible(guest);
    await toggleDark(guest);
    await screenshots(guest, "home-written");
  } finally {
    await visitor.close();
    await removePages("");
    await setConfig("start_time", null);
    await setConfig("end_time", null);
  }
});

test("sign-up asks to accept only the terms staff have written, and the pre-event check asks for the missing pages", async ({ page, browser }) => {
  await removePages("terms", "privacy", "");
  await asStaff(page);
  const visitor = await browser.newContext();
  const guest = await visitor.newPage();
  try {
    await page.goto("/admin/check");
    await expect(page.getByRole("heading", { level: 1, name: "Pre-Event Check" })).toBeVisible();
    const issues = page.getByTestId("check-page-issue");
    await expect(issues).toHaveCount(3);
    await expect(issues.nth(0)).toContainText("no terms of use");
    await expect(issues.nth(1)).toContainText("no privacy policy");
    await expect(issues.nth(2)).toContainText("home page is still the default");
    await expect(page.getByTestId("check-passed")).toHaveCount(0);
    await expectAccessible(page);
    await toggleDark(page);
    await expectAccessible(page);
    await toggleDark(page);
    await screenshots(page, "admin-check-pages");

    // Nothing written: nothing to accept.
    await guest.goto("/register");
    await expect(guest.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(guest.getByRole("button", { name: "Register" })).toBeEnabled();
    await expect(guest.getByRole("checkbox")).toHaveCount(0);

    await issues.nth(0).getByRole("link", { name: "Write it: /terms" }).click();
    await expect(page).toHaveURL(/\/admin\/cms$/);
    await page.getByRole("button", { name: "New page" }).click();
    await page.getByRole("textbox", { name: "Address" }).fill("/terms");
    await page.getByRole("textbox", { name: "Title", exact: true }).fill("Terms of use");
    await page.getByRole("textbox", { name: "Content (Markdown)" }).fill("Play fair; do not attack the platform.");
    await page.getByRole("button", { name: "Save page" }).click();
    await expect(page.getByText("Page created")).toBeVisible();

    // Terms written: sign-up asks for them, linking that page and no other.
    await guest.goto("/register");
    const accept = guest.getByRole("checkbox", { name: "I accept the terms of use." });
    await expect(accept).toBeVisible();
    await expect(guest.getByRole("link", { name: "terms of use" })).toHaveAttribute("href", "/terms");
    await expect(guest.getByRole("link", { name: "privacy policy" })).toHaveCount(0);
    await guest.getByRole("button", { name: "Register" }).click();
    await expect(guest.getByText("You must accept the terms of use to register.")).toBeVisible();
    await expectAccessible(guest);
    await screenshots(guest, "register-terms");

    await page.goto("/admin/check");
    await expect(issues).toHaveCount(2);
    await expect(issues.nth(0)).toContainText("no privacy policy");
  } finally {
    await visitor.close();
    await removePages("terms");
  }
});

test("staff place a page in the navigation from Admin → Pages; visitors and signed-in users find it in the sidebar", async ({ page, browser }) => {
  const url = `/${unique("rules-").toLowerCase()}`;
  const title = unique("House rules ");
  await database().query(`INSERT INTO pages (url, title, content) VALUES ($1, $2, 'Play **fair**.')`, [url, title]);
  const staff = await asStaff(page);
  const visitor = await browser.newContext();
  const guest = await visitor.newPage();
  try {
    await guest.goto("/leaderboard");
    const nav = guest.getByRole("navigation", { name: "Main navigation" });
    await expect(nav.getByRole("link", { name: "Leaderboard" })).toBeVisible();
    await expect(nav.getByRole("link", { name: title })).toHaveCount(0);

    await page.goto("/admin/cms");
    const toggle = page.getByRole("switch", { name: `Show ${title} in the navigation` });
    await expect(toggle).not.toBeChecked();
    await toggle.click();
    await expect(page.getByText(`${title} is now in the navigation`)).toBeVisible();
    await expect(toggle).toBeChecked();
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshots(page, "admin-cms-in-nav");
    const { rows } = await database().query<{ extra: { fields: string[] } }>(
      `SELECT extra FROM audit_log WHERE action = 'update_page' AND user_id = $1 ORDER BY id DESC LIMIT 1`,
      [staff.id],
    );
    expect(rows[0]?.extra.fields).toEqual(["inNav"]);

    // The staff member's own sidebar lists it at once; a visitor's after a reload.
    await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: title })).toBeVisible();
    await guest.reload();
    const entry = nav.getByRole("link", { name: title });
    await entry.click();
    await expect(guest).toHaveURL(new RegExp(`${url}$`));
    await expect(entry).toHaveAttribute("aria-current", "page");
    await expect(guest.locator("main strong")).toHaveText("fair");
    await expectAccessible(guest);
    await guest.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(guest);
  } finally {
    await visitor.close();
    await removePages(url.slice(1));
  }
});
