import { expect, type Locator, type Page, test } from "@playwright/test";
import { expectAccessible, screenshots, toggleDark } from "./support/axe.ts";
import { expectChartTextInside } from "./support/charts.ts";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { asStaff, clearSchedule, openAdmin } from "./support/console.ts";
import { database, seedUser, type SeededUser, setConfig, signIn, unique } from "./support/db.ts";

/** Staff journeys through the staff console, each page checked with axe and photographed. */

const PHONE = { width: 390, height: 844 };

/**
 * At phone width the page never scrolls sideways and the table fits: every cell of its first row,
 * the last column's included, lies whole on the screen with nothing cut off inside it.
 */
async function expectTableFitsPhone(page: Page, table: Locator): Promise<void> {
  await page.setViewportSize(PHONE);
  try {
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const cells = table.locator("tbody tr").first().locator("td");
    await cells.last().scrollIntoViewIfNeeded();
    await expect(cells.last()).toBeInViewport({ ratio: 1 });
    const boxes = await cells.evaluateAll((tds) =>
      tds.map((td) => ({ text: td.textContent, left: td.getBoundingClientRect().left, right: td.getBoundingClientRect().right, cut: td.scrollWidth > td.clientWidth + 1 })),
    );
    for (const box of boxes) {
      expect(box, `cell "${box.text}"`).toMatchObject({ cut: false });
      expect(box.left, `cell "${box.text}"`).toBeGreaterThanOrEqual(0);
      expect(box.right, `cell "${box.text}"`).toBeLessThanOrEqual(PHONE.width);
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 720 });
  }
}

/** Each text input of the page, brought into view by focus, is not under anything (the save bar). */
async function expectInputsUncovered(page: Page): Promise<void> {
  const inputs = page.locator("main input[type=text], main input:not([type])");
  const count = await inputs.count();
  expect(count).toBeGreaterThan(5);
  for (let i = 0; i < count; i++) {
    const input = inputs.nth(i);
    await input.focus();
    const hit = await input.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.bottom - 2);
      return top === el || el.contains(top) || (top !== null && top.contains(el));
    });
    expect(hit, `input ${await input.getAttribute("id")} is hidden under something`).toBe(true);
  }
}

test("a player is sent home from every admin page and sees no admin menu", async ({ page }) => {
  const player = await seedUser();
  await signIn(page, player);
  for (const path of ["/admin/members", "/admin/audit_log", "/admin/outbox", "/admin/no-such-page"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/(campaign)?$/);
  }
  await expect(page.getByRole("navigation", { name: "Main navigation" }).getByText("Admin", { exact: true })).toHaveCount(0);
});

test("the admin submenu lists every staff page and unknown admin pages are 'Page not found'", async ({ page }) => {
  await asStaff(page);
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  await nav.getByText("Admin", { exact: true }).click();
  for (const label of ["Configuration", "Announcements", "Pages", "Invites", "Statistics", "Members", "Teams", "Audit Log", "Challenge Overview", "Pre-Event Check", "Outbox"]) {
    await expect(nav.getByRole("link", { name: label, exact: true }).last()).toBeVisible();
  }
  await openAdmin(page, "Outbox", "/admin/outbox");
  await page.goto("/admin/nothing-here");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("configuration: grouped settings, saved together, with errors beside the field", async ({ page }) => {
  await asStaff(page);
  await page.goto("/");
  await expect(page.getByTestId("home-content")).toBeVisible();
  await openAdmin(page, "Configuration", "/admin/config");
  for (const group of ["Event", "Dates", "Registration and login", "Teams", "Scoring and scoreboard", "Flags", "Challenge servers", "Integrations", "Experiments"]) {
    await expect(page.getByRole("heading", { name: group, exact: true })).toBeVisible();
  }
  await expectAccessible(page);
  // Experiments by a readable name, each with its key beside it.
  await expect(page.getByRole("switch", { name: "Advanced member search" })).toBeVisible();
  await expect(page.getByText("advSearch", { exact: true })).toBeVisible();
  // The save bar only shows with something to save, and never hides a field under it.
  await expect(page.getByTestId("config-save-bar")).toHaveCount(0);
  await page.getByRole("switch", { name: "Leaving teams" }).click();
  await expect(page.getByTestId("config-save-bar")).toBeVisible();
  for (const size of [{ width: 1440, height: 900 }, PHONE]) {
    await page.setViewportSize(size);
    // At phone width the sidebar slides away: only once it is gone is the page laid out.
    if (size === PHONE) await expect(page.locator(".app-navbar")).not.toBeInViewport();
    await expectInputsUncovered(page);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await screenshots(page, "admin-config-dirty");
  await page.getByRole("button", { name: "Discard changes" }).click();
  await expect(page.getByTestId("config-save-bar")).toHaveCount(0);
  await screenshots(page, "admin-config");

  const teamSize = page.getByRole("textbox", { name: "Maximum team size" });
  try {
    // The server's refusal lands beside its field, and nothing is saved.
    await teamSize.fill("5");
    await page.getByRole("textbox", { name: "Flag prefix" }).fill("not a prefix");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText(/^Failed to update config:/)).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Flag prefix" })).toHaveAttribute("aria-invalid", "true");
    const { rows } = await database().query<{ value: unknown }>(`SELECT value FROM config WHERE key = 'team_size'`);
    expect(rows[0]?.value ?? 0).toBe(0);

    await page.getByRole("textbox", { name: "Flag prefix" }).fill("flag");
    await page.getByRole("switch", { name: "Leaving teams" }).click();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Config updated")).toBeVisible();
    await page.reload();
    await expect(teamSize).toHaveValue("5");
    await expect(page.getByRole("switch", { name: "Leaving teams" })).toBeChecked();
    await toggleDark(page);
    await expectAccessible(page);
    await toggleDark(page);
  } finally {
    await setConfig("team_size", 0);
    await setConfig("enable_team_leave", false);
  }
});

/** Picks a day of next month and a time in an event time field's calendar, without typing a date. */
async function pickTime(page: Page, field: string, day: number, hours: string, minutes: string): Promise<void> {
  await page.getByRole("button", { name: field, exact: true }).click();
  const picker = page.getByRole("dialog").last();
  const month = await page.evaluate(() => {
    const d = new Date();
    return { year: d.getMonth() === 11 ? d.getFullYear() + 1 : d.getFullYear(), month: (d.getMonth() + 1) % 12 };
  });
  const name = new Date(Date.UTC(month.year, month.month, day)).toLocaleString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  // The calendar opens on the field's month, or this month when it is empty.
  if (!(await picker.getByRole("button", { name, exact: true }).isVisible())) await picker.getByRole("button", { name: "Next month" }).click();
  await picker.getByRole("button", { name, exact: true }).click();
  await picker.getByRole("spinbutton", { name: "Hours" }).fill(hours);
  await picker.getByRole("spinbutton", { name: "Minutes" }).fill(minutes);
  await picker.getByRole("button", { name: "Use this time" }).click();
}

test.describe("in Tokyo", () => {
  // A zone away from UTC (and without summer time), so the local and UTC previews differ.
  test.use({ timezoneId: "Asia/Tokyo" });
  test("configuration: event times are picked, shown in local time and UTC with the event's length, and an end before the start is refused", async ({ page }) => {
    await asStaff(page);
    await page.goto("/admin/config");
    await expect(page.getByRole("heading", { level: 1, name: "Configuration" })).toBeVisible();
    // No text box asks for a date format: every time is a picker.
    await expect(page.getByRole("textbox", { name: "Event starts" })).toHaveCount(0);
    const expected = (day: number, hour: number, minute: number) =>
      page.evaluate(([d, h, m]) => {
        const now = new Date();
        return new Date(now.getFullYear(), now.getMonth() + 1, d, h, m).getTime() / 1000;
      }, [day, hour, minute] as const);
    try {
      await pickTime(page, "Event starts", 10, "09", "30");
      const start = page.getByTestId("event-start-preview");
      await expect(start).toContainText(/Your time \(Asia\/Tokyo\): \w+ 10, \d{4}, 9:30\sAM/);
      await expect(start).toContainText(/UTC: \w+ 10, \d{4}, 12:30\sAM/);

      // An end before the start is said on the end field and nothing is saved.
      await pickTime(page, "Event ends", 8, "18", "00");
      await expect(page.getByText("The end must come after the start.")).toBeVisible();
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByRole("button", { name: "Event ends", exact: true })).toHaveAttribute("data-error", "true");
      const saved = async () => (await database().query<{ value: unknown }>(`SELECT value FROM config WHERE key = 'start_time'`)).rows[0]?.value ?? null;
      expect(await saved()).toBeNull();
      await expectAccessible(page);
      await screenshots(page, "admin-config-times-error");

      await pickTime(page, "Event ends", 12, "18", "00");
      await expect(page.getByText("The end must come after the start.")).toHaveCount(0);
      await expect(page.getByTestId("event-end-preview")).toContainText("Event length: 2 days 8 hours 30 minutes");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByText("Config updated")).toBeVisible();
      expect(await saved()).toBe(await expected(10, 9, 30));
      const { rows } = await database().query<{ value: unknown }>(`SELECT value FROM config WHERE key = 'end_time'`);
      expect(rows[0]?.value).toBe(await expected(12, 18, 0));
      await page.reload();
      await expect(page.getByTestId("event-end-preview")).toContainText("Event length: 2 days 8 hours 30 minutes");
      await toggleDark(page);
      await expectAccessible(page);
      await toggleDark(page);
      await screenshots(page, "admin-config-times");

      // A time is cleared with its button; unset means no limit.
      await page.getByRole("button", { name: "Clear Event ends" }).click();
      await expect(page.getByTestId("event-end-preview")).toHaveCount(0);
    } finally {
      await clearSchedule();
    }
  });
});

test("announcements: post with a preview, players get it live, then remove it", async ({ page, browser }) => {
  await asStaff(page);
  const player = await seedUser();
  const playerContext = await browser.newContext();
  const playerPage = await playerContext.newPage();
  await signIn(playerPage, player);
  await playerPage.goto("/leaderboard");

  await page.goto("/admin/announcements");
  await expect(page.getByRole("heading", { level: 1, name: "Announcements" })).toBeVisible();
  await expectAccessible(page);
  const title = unique("Server move ");
  await page.getByRole("textbox", { name: "Title" }).fill(title);
  await page.getByRole("textbox", { name: "Message (Markdown)" }).fill("We move to **room 2** at noon.");
  await page.getByRole("tab", { name: "Preview" }).click();
  await expect(page.getByTestId("markdown-preview").locator("strong")).toHaveText("room 2");
  await page.getByRole("button", { name: "Post announcement" }).click();
  await expect(page.getByText("Announcement posted")).toBeVisible();
  await expect(page.getByTestId("admin-announcement").filter({ hasText: title })).toBeVisible();
  await expect(playerPage.getByText(title).first()).toBeVisible();
  await screenshots(page, "admin-announcements");
  await page.setViewportSize(PHONE);
  const remove = page.getByRole("button", { name: `Remove ${title}` });
  await remove.scrollIntoViewIfNeeded();
  await expect(remove).toBeInViewport({ ratio: 1 });
  expect(await remove.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.getByRole("button", { name: `Remove ${title}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("Removed announcement")).toBeVisible();
  await expect(page.getByTestId("admin-announcement").filter({ hasText: title })).toHaveCount(0);
  await playerContext.close();
});

test("pages: create, refuse an admin address, edit, view and delete", async ({ page }) => {
  await asStaff(page);
  await page.goto("/admin/cms");
  await expect(page.getByRole("heading", { level: 1, name: "Pages" })).toBeVisible();
  const slug = unique("rules-").toLowerCase();
  await page.getByRole("button", { name: "New page" }).click();
  await page.getByRole("textbox", { name: "Address" }).fill("/admin/config");
  await page.getByRole("textbox", { name: "Title", exact: true }).fill("House rules");
  await page.getByRole("textbox", { name: "Content (Markdown)" }).fill("Be *kind*.");
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(page.getByText("Overwriting admin pages is forbidden.")).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("textbox", { name: "Address" }).fill(`/${slug}`);
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(page.getByText("Page created")).toBeVisible();
  await expect(page.getByRole("link", { name: `/${slug}` })).toBeVisible();

  await page.getByRole("button", { name: "Edit House rules" }).click();
  await page.getByRole("textbox", { name: "Title", exact: true }).fill("Event rules");
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(page.getByText("Page saved")).toBeVisible();
  await screenshots(page, "admin-cms");

  await page.goto(`/${slug}`);
  await expect(page.getByRole("heading", { name: "Event rules" })).toBeVisible();
  await expect(page.locator("article em")).toHaveText("kind");

  await page.goto("/admin/cms");
  // Removed meanwhile by someone else: the failure is said, and the list catches up.
  await expect(page.getByRole("button", { name: "Remove Event rules" })).toBeVisible();
  // Urls are kept as typed ("/slug").
  const { rows } = await database().query<{ id: number }>(`SELECT id FROM pages WHERE url = $1`, [`/${slug}`]);
  await database().query(`DELETE FROM pages WHERE id = $1`, [rows[0]!.id]);
  await page.getByRole("button", { name: "Remove Event rules" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText(/^Failed to remove page:/)).toBeVisible();

  await page.getByRole("button", { name: "New page" }).click();
  await page.getByRole("textbox", { name: "Address" }).fill(`/${slug}`);
  await page.getByRole("textbox", { name: "Title", exact: true }).fill("Short-lived");
  await page.getByRole("textbox", { name: "Content (Markdown)" }).fill("Gone soon.");
  await page.getByRole("button", { name: "Save page" }).click();
  await page.getByRole("button", { name: "Remove Short-lived" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("Page removed")).toBeVisible();
  await expect(page.getByRole("link", { name: `/${slug}` })).toHaveCount(0);
});

test("invites: quick and typed amounts, the full list view, filters and paging", async ({ page }) => {
  await asStaff(page);
  const team = await seedTeam(1);
  await page.goto("/admin/invites");
  await expect(page.getByRole("heading", { level: 1, name: "Invites" })).toBeVisible();

  await page.getByRole("button", { name: "Generate 1", exact: true }).click();
  await expect(page.getByText("Generated 1 invite")).toBeVisible();
  await expect(page.getByTestId("generated-invites")).toContainText("1 new code");

  await page.getByRole("textbox", { name: "Amount" }).fill("lots");
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  await expect(page.getByText("A number is required.")).toBeVisible();

  // The three inputs of the form line up, help text or not.
  const inputs = [page.getByRole("textbox", { name: "Amount" }), page.getByRole("textbox", { name: "Uses per code" }), page.getByRole("combobox", { name: "Auto-join team" })];
  const tops = await Promise.all(inputs.map(async (input) => (await input.boundingBox())!.y));
  expect(new Set(tops).size).toBe(1);

  await page.getByRole("textbox", { name: "Amount" }).fill("25");
  await page.getByRole("textbox", { name: "Uses per code" }).fill("3");
  // The team is picked by name: part of it finds it.
  await page.getByRole("combobox", { name: "Auto-join team" }).fill(team.name.slice(2));
  await page.getByRole("option", { name: team.name, exact: true }).click();
  await expect(page.getByRole("combobox", { name: "Auto-join team" })).toHaveValue(team.name);
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  // Above 20 codes the list shows every code in one full-height block.
  await expect(page.getByTestId("generated-invites")).toContainText("25 new codes");
  expect((await page.getByTestId("all-invites").innerText()).trim().split("\n")).toHaveLength(25);
  await expectAccessible(page);

  const list = page.getByTestId("invite-list");
  await expect(list.getByText("0 / 3").first()).toBeVisible();
  await expect(list.getByRole("cell", { name: team.name, exact: true }).first()).toBeVisible();
  const { rows: made } = await database().query<{ auto_team_id: number }>(`SELECT auto_team_id FROM invites WHERE id = (SELECT max(id) FROM invites)`);
  expect(made[0]?.auto_team_id).toBe(team.id);
  await page.getByRole("combobox", { name: "Per page" }).click();
  await page.getByRole("option", { name: "10", exact: true }).click();
  await expect(list.locator("tbody tr")).toHaveCount(10);
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(list.locator("tbody tr")).toHaveCount(20);

  const { rows } = await database().query<{ code: string }>(`UPDATE invites SET uses = max_uses WHERE id = (SELECT max(id) FROM invites) RETURNING code`);
  await page.getByText("Fully used", { exact: true }).click();
  await expect(list.getByText(rows[0]!.code)).toBeVisible();
  await page.getByText("Not fully used", { exact: true }).click();
  await expect(list.getByText(rows[0]!.code)).toHaveCount(0);
  await toggleDark(page);
  await expectAccessible(page);
  await toggleDark(page);
  await expectTableFitsPhone(page, list);
  await screenshots(page, "admin-invites");
});

test("members: search, edit every flag, remove from a team, impersonate and delete", async ({ page }) => {
  await asStaff(page);
  const tag = unique("mem").toLowerCase();
  const team = await seedTeam(2);
  const target = team.members[1]!;
  await database().query(`UPDATE users SET username = $1, email = $2 WHERE id = $3`, [`${tag}-target`, `${tag}@mail.test`, target.id]);
  await seedUser({ username: `${tag}-other` });

  await page.goto("/admin/members");
  await expect(page.getByRole("heading", { level: 1, name: "Members" })).toBeVisible();
  await page.getByRole("searchbox", { name: "Search members" }).fill("no-such-member-anywhere");
  await expect(page.getByText("No results found.")).toBeVisible();
  await page.getByRole("searchbox", { name: "Search members" }).fill(`${tag}@mail`);
  await expect(page.getByTestId("search-results").locator("tbody tr")).toHaveCount(1);
  await page.getByRole("searchbox", { name: "Search members" }).fill(tag);
  await expect(page.getByTestId("search-results").locator("tbody tr")).toHaveCount(2);
  await page.getByRole("button", { name: `Open ${tag}-target` }).click();
  const editor = page.getByTestId("member-editor");
  await expect(editor.getByRole("heading", { name: `${tag}-target` })).toBeVisible();
  await expectAccessible(page);
  await toggleDark(page);
  await expectAccessible(page);
  await toggleDark(page);
  await expectTableFitsPhone(page, page.getByTestId("search-results"));
  await screenshots(page, "admin-members");

  await editor.getByRole("textbox", { name: "Bio" }).fill("Edited by staff");
  // Each switch is named by its label and what it does.
  await editor.getByRole("switch", { name: /^Visible/ }).click();
  await editor.getByRole("switch", { name: /^Staff Shows a “Staff” badge/ }).click();
  await editor.getByRole("button", { name: "Save member" }).click();
  await expect(page.getByText("Modified user")).toBeVisible();
  const { rows } = await database().query<{ bio: string; is_visible: boolean; is_verified: boolean }>(`SELECT bio, is_visible, is_verified FROM users WHERE id = $1`, [target.id]);
  expect(rows[0]).toEqual({ bio: "Edited by staff", is_visible: false, is_verified: true });

  // A taken username is refused beside the field.
  await editor.getByRole("textbox", { name: "Username" }).fill(`${tag}-other`);
  await editor.getByRole("button", { name: "Save member" }).click();
  await expect(editor.getByText("That username is already taken.")).toBeVisible();
  await editor.getByRole("textbox", { name: "Username" }).fill(`${tag}-target`);

  await editor.getByRole("button", { name: "Remove from team" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove from team" }).click();
  await expect(page.getByText("Removed from the team")).toBeVisible();
  await expect(editor.getByRole("combobox", { name: "Team" })).toHaveValue("");

  // Every switch says what it does; a team is picked by name, not typed as an id.
  await expect(editor.getByText(/Shows a “State Actor” badge on their profile/)).toBeVisible();
  const other = await seedTeam(1);
  await editor.getByRole("combobox", { name: "Team" }).fill(other.name.slice(2));
  await page.getByRole("option", { name: other.name, exact: true }).click();
  await editor.getByRole("button", { name: "Save member" }).click();
  await expect.poll(async () => (await database().query<{ team_id: number }>(`SELECT team_id FROM users WHERE id = $1`, [target.id])).rows[0]?.team_id).toBe(other.id);
  await expect(editor.getByRole("combobox", { name: "Team" })).toHaveValue(other.name);

  await editor.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Member deleted")).toBeVisible();
  await expect(editor).toHaveCount(0);

  // Impersonation asks first, then the whole site is seen as that member.
  await page.getByRole("button", { name: `Open ${tag}-other` }).click();
  await editor.getByRole("button", { name: "Impersonate" }).click();
  await page.getByTestId("confirm-impersonate").click();
  await expect(page.getByTestId("impersonation-banner")).toContainText(`${tag}-other`);
  await page.getByRole("button", { name: "End impersonation" }).click();
  await expect(page.getByText("Impersonation ended - welcome back.")).toBeVisible();
});

test("members: a search with more results than fit asks for a narrower one", async ({ page }) => {
  await asStaff(page);
  const tag = unique("many").toLowerCase();
  for (let i = 0; i < 26; i++) await seedUser({ username: `${tag}-${String(i).padStart(2, "0")}` });
  await page.goto("/admin/members");
  await page.getByRole("searchbox", { name: "Search members" }).fill(tag);
  await expect(page.getByTestId("search-results").locator("tbody tr")).toHaveCount(25);
  await expect(page.getByText("Additional results were omitted. Please refine your search.")).toBeVisible();
  await page.getByRole("searchbox", { name: "Search members" }).fill(`${tag}-25`);
  await expect(page.getByTestId("search-results").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("results-omitted")).toHaveCount(0);
});

test("members: staff opening their own record are told they cannot impersonate themselves", async ({ page }) => {
  const staff = await asStaff(page);
  await page.goto("/admin/members");
  await page.getByRole("searchbox", { name: "Search members" }).fill(staff.username);
  await page.getByRole("button", { name: `Open ${staff.username}` }).click();
  const editor = page.getByTestId("member-editor");
  await expect(editor.getByText("You cannot impersonate yourself.")).toBeVisible();
  await expect(editor.getByRole("button", { name: "Impersonate" })).toHaveCount(0);
});

test("members: staff see each account's failed sign-ins in the list and in the editor", async ({ page }) => {
  const tag = unique("guessed").toLowerCase();
  const target = await seedUser({ username: `${tag}-target` });
  const clean = await seedUser({ username: `${tag}-clean` });
  for (const password of ["not it", "not it either"]) {
    const res = await page.request.post("/api/v2/auth/login/", { data: { username: target.username, password } });
    expect(res.status()).toBe(401);
  }
  await asStaff(page);
  await page.goto("/admin/members");
  await page.getByRole("searchbox", { name: "Search members" }).fill(tag);
  const rows = page.getByTestId("search-results").locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: target.username }).getByTestId("sign-in-failures")).toHaveText("2 failed");
  await expect(rows.filter({ hasText: clean.username }).getByTestId("sign-in-failures")).toHaveCount(0);
  await page.getByRole("button", { name: `Open ${target.username}` }).click();
  const failures = page.getByTestId("member-editor").getByTestId("member-sign-in-failures");
  await expect(failures).toContainText("Wrong passwords: 2 · wrong 2FA or backup codes: 0");
  await expectAccessible(page);
  await toggleDark(page);
  await expectAccessible(page);
  await toggleDark(page);
  await expectTableFitsPhone(page, page.getByTestId("search-results"));
  await page.getByRole("button", { name: `Open ${clean.username}` }).click();
  await expect(page.getByTestId("member-editor").getByTestId("member-sign-in-failures")).toHaveText("No failed sign-ins");
});

test("members: the advanced search appears with the advSearch experiment", async ({ page }) => {
  await asStaff(page);
  await page.goto("/admin/members");
  await expect(page.getByRole("searchbox", { name: "Search members" })).toBeVisible();
  await expect(page.getByTestId("advanced-search")).toHaveCount(0);
  try {
    await setConfig("experiments", { advSearch: true });
    const tag = unique("adv").toLowerCase();
    const admin = await seedUser({ isStaff: true, username: `${tag}-admin` });
    await seedUser({ username: `${tag}-player` });
    await page.reload();
    await page.getByRole("searchbox", { name: "Search members" }).fill(tag);
    await expect(page.getByTestId("search-results").locator("tbody tr")).toHaveCount(2);
    await page.getByTestId("advanced-search").getByRole("checkbox", { name: "Admin" }).click();
    await expect(page.getByTestId("search-results").locator("tbody tr")).toHaveCount(1);
    await expect(page.getByRole("button", { name: `Open ${admin.username}` })).toBeVisible();
    await expectAccessible(page);
  } finally {
    await setConfig("experiments", {});
  }
});

test("teams: search, edit, transfer ownership by clicking a member, remove a member", async ({ page }) => {
  await asStaff(page);
  const team = await seedTeam(3);
  const [owner, heir, leaver] = team.members as [SeededUser, SeededUser, SeededUser];
  await page.goto("/admin/teams");
  await expect(page.getByRole("heading", { level: 1, name: "Teams" })).toBeVisible();
  await page.getByRole("searchbox", { name: "Search teams" }).fill(team.name);
  await page.getByRole("button", { name: `Open ${team.name}` }).click();
  const editor = page.getByTestId("team-editor");
  await expect(editor.getByTestId("team-member")).toHaveCount(3);
  await expect(editor.getByTestId("team-member").filter({ hasText: owner.username })).toContainText("Owner");
  await expectAccessible(page);
  await expectTableFitsPhone(page, page.getByTestId("search-results"));
  await screenshots(page, "admin-teams");

  await editor.getByRole("button", { name: `Make ${heir.username} the owner` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Transfer ownership" }).click();
  await expect(page.getByText(`Transfered ownership to ${team.name}`)).toBeVisible();
  await expect(editor.getByTestId("team-member").filter({ hasText: heir.username })).toContainText("Owner");

  const renamed = unique("Renamed ");
  await editor.getByRole("textbox", { name: "Name" }).fill(renamed);
  await editor.getByRole("switch", { name: "Visible" }).click();
  await editor.getByRole("button", { name: "Save team" }).click();
  await expect(page.getByText("Modified team")).toBeVisible();
  await expect(editor.getByRole("heading", { name: renamed })).toBeVisible();

  await editor.getByRole("button", { name: `Remove ${leaver.username} from the team` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove from team" }).click();
  await expect(editor.getByTestId("team-member")).toHaveCount(2);

  await editor.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Team deleted")).toBeVisible();
  await expect(editor).toHaveCount(0);
  const { rows } = await database().query(`SELECT id FROM teams WHERE id = $1`, [team.id]);
  expect(rows).toHaveLength(0);
});

test("teams: the page says so when teams are off", async ({ page }) => {
  await asStaff(page);
  try {
    await setConfig("enable_teams", false);
    await page.goto("/admin/teams");
    await expect(page.getByText("Teams are not enabled for this event.")).toBeVisible();
  } finally {
    await setConfig("enable_teams", true);
  }
});

test("audit log: staff writes newest first, readable, filtered by action and actor", async ({ page }) => {
  const staff = await asStaff(page);
  const freeze = 2_000_000_000;
  try {
    const setting = await page.request.post("/api/v2/config/scoreboard_freeze_time/", { headers: { authorization: `Token ${staff.token}` }, data: { value: freeze } });
    expect(setting.ok()).toBe(true);
  } finally {
    await setConfig("scoreboard_freeze_time", null);
  }
  const title = unique("Audit ");
  const response = await page.request.post("/api/v2/announcements/", { headers: { authorization: `Token ${staff.token}` }, data: { title, body: "x" } });
  expect(response.status()).toBe(201);
  await page.goto("/admin/audit_log");
  await expect(page.getByRole("heading", { level: 1, name: "Audit Log" })).toBeVisible();
  const log = page.getByTestId("audit-log");
  // Each entry in words, with who did it.
  await expect(log.locator("tbody tr").first()).toContainText(`Posted announcement ${title}`);
  await expect(log.locator("tbody tr").first()).toContainText(staff.username);
  // A setting by the name the config editor gives it, a Unix time as a date.
  const date = await page.evaluate((seconds) => new Date(seconds * 1000).toLocaleString(), freeze);
  const freezeRow = log.locator("tbody tr").filter({ hasText: `Changed setting Scoreboard freezes to ${date}` }).first();
  await expect(freezeRow).toBeVisible();
  // The raw details on demand: the action's code and each value recorded, the time still as a date.
  await expect(freezeRow.getByTestId("audit-details")).toHaveCount(0);
  const toggle = freezeRow.getByRole("button", { name: /^Details of: Changed setting Scoreboard freezes/ });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const details = freezeRow.getByTestId("audit-details");
  await expect(details).toContainText("set_config");
  await expect(details).toContainText("key: scoreboard_freeze_time");
  await expect(details).toContainText(`new_value: ${date}`);
  await expect(details).not.toContainText(String(freeze));
  await expect(freezeRow.getByTestId("audit-setting")).toContainText("Scoreboard freezes");
  await expect(freezeRow.getByTestId("audit-setting")).toHaveAttribute("title", "scoreboard_freeze_time");
  await page.getByRole("searchbox", { name: "Staff member" }).fill(staff.username);
  await expect(log.locator("tbody tr").first()).toContainText(staff.username);
  await expect(log.locator("tbody tr").filter({ hasNotText: staff.username })).toHaveCount(0);
  await page.getByRole("searchbox", { name: "Staff member" }).fill("");
  await page.getByRole("combobox", { name: "Action" }).click();
  await page.getByRole("option", { name: "Posted an announcement" }).click();
  await expect(log.locator("tbody tr").first()).toContainText("Posted announcement");
  await expect(log.locator("tbody tr").filter({ hasNotText: "Posted announcement" })).toHaveCount(0);
  await expectAccessible(page);
  await expectTableFitsPhone(page, log);
  await screenshots(page, "admin-audit-log");
});

test("challenge overview and the pre-event check link to the editor", async ({ page, request }) => {
  const staff = await asStaff(page);
  const category = await seedCategory(request, staff, { name: unique("Overview "), contained_type: "jeopardy" });
  const cheap = await seedChallenge(request, staff, { category: category.id, name: unique("Cheap "), score: 50, flag_metadata: { flag: "flag{a}" } });
  const broken = await seedChallenge(request, staff, { category: category.id, name: unique("Broken "), score: 300, flag_type: "hashed", flag_metadata: { flag: "a".repeat(64) }, hidden: true });
  // The API refuses a bad hash, so break it where an old import could have: in the database.
  await database().query(`UPDATE challenges SET flag_metadata = '{"flag": "nothex"}' WHERE id = $1`, [broken.id]);

  await page.goto("/admin/allChallenges");
  await expect(page.getByRole("heading", { level: 1, name: "Challenge Overview" })).toBeVisible();
  const table = page.getByTestId("challenge-overview");
  const brokenRow = table.locator("tr").filter({ hasText: broken.name });
  await expect(brokenRow).toContainText("Hidden");
  await expect(brokenRow).toContainText("Hashed flag");
  await page.getByRole("button", { name: /^Score/ }).click();
  await page.getByRole("button", { name: /^Score/ }).click();
  await expect(table.getByRole("columnheader", { name: /Score/ })).toHaveAttribute("aria-sort", "descending");
  const names = await table.locator("tbody tr td:first-child").allInnerTexts();
  expect(names.indexOf(broken.name)).toBeLessThan(names.indexOf(cheap.name));
  await expectAccessible(page);
  await toggleDark(page);
  await expectAccessible(page);
  await toggleDark(page);
  await expectTableFitsPhone(page, table);
  await screenshots(page, "admin-overview");
  await expect(table.getByRole("link", { name: cheap.name })).toHaveAttribute("href", new RegExp(`/campaign/.+/.+#edit$`));

  await page.goto("/admin/check");
  const issue = page.getByTestId("check-issue").filter({ hasText: broken.name });
  await expect(issue).toContainText("invalid_flag_data");
  await expect(issue.getByRole("link", { name: "Edit challenge" })).toHaveAttribute("href", new RegExp(`/campaign/.+/.+#edit$`));
  await expectAccessible(page);
  await screenshots(page, "admin-check");
});

test("statistics: the numbers, the charts and the per-challenge table", async ({ page, request }) => {
  const staff = await asStaff(page);
  const category = await seedCategory(request, staff, { name: unique("Stats "), contained_type: "jeopardy" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: unique("Counted "), score: 100, flag_metadata: { flag: "flag{x}" } });
  const untried = await seedChallenge(request, staff, { category: category.id, name: unique("Untried "), score: 100, flag_metadata: { flag: "flag{y}" } });
  const team = await seedTeam(1);
  const player = team.members[0]!;
  for (const flag of ["flag{no}", "flag{nope}", "flag{x}"]) {
    await request.post("/api/v2/challenges/submit_flag/", { headers: { authorization: `Token ${player.token}` }, data: { challenge: challenge.id, flag } });
  }
  await page.goto("/admin/statistics");
  await expect(page.getByRole("heading", { level: 1, name: "Statistics" })).toBeVisible();
  await expect(page.getByTestId("stat-numbers")).toContainText("Users");
  const row = page.getByTestId("stats-table").locator("tr").filter({ hasText: challenge.name });
  // One solve and two wrong flags; the solve rate is the share of all teams (other tests' too) that solved it.
  await expect(row.locator("td").nth(1)).toHaveText("1");
  await expect(row.locator("td").nth(2)).toHaveText("2");
  await expect(row.locator("td").nth(3)).toHaveText(/^(?!0\.00%)\d+\.\d\d%$/);
  // A challenge nobody has tried is listed too.
  await expect(page.getByTestId("stats-table").locator("tr").filter({ hasText: untried.name }).locator("td").nth(3)).toHaveText("0.00%");
  await expect(page.getByRole("img", { name: "Submissions per challenge" })).toBeVisible();
  await expectAccessible(page);
  await expectTableFitsPhone(page, page.getByTestId("stats-table"));
  // On a phone no chart's labels run off its card, in either scheme.
  await page.setViewportSize(PHONE);
  const charts = ["Submissions per challenge", "Solve rate per challenge", "Team point distribution", "Confirmed accounts"].map((name) => page.getByRole("img", { name, exact: true }));
  for (const chart of charts) await expectChartTextInside(chart);
  await toggleDark(page);
  for (const chart of charts) await expectChartTextInside(chart);
  await toggleDark(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await screenshots(page, "admin-statistics");
  await toggleDark(page);
  await expectAccessible(page);
  await toggleDark(page);
});

test("warning banners for staff fold into tabs, and players never see them", async ({ page, browser }) => {
  await asStaff(page);
  try {
    await setConfig("enable_maintenance_mode", true);
    await setConfig("enable_registration", false);
    await page.goto("/leaderboard");
    const warnings = page.getByTestId("staff-warnings");
    await expect(warnings.getByText("Maintenance mode is on.")).toBeVisible();
    await expect(warnings.getByText("Registration is closed: nobody can sign up.")).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, "admin-warnings");
    await warnings.getByRole("button", { name: "Hide: Maintenance mode is on." }).click();
    await expect(warnings.getByText("Maintenance mode is on.")).toHaveCount(0);
    await warnings.getByRole("button", { name: "Maintenance" }).click();
    await expect(warnings.getByText("Maintenance mode is on.")).toBeVisible();

    const player = await seedUser();
    const context = await browser.newContext();
    const playerPage = await context.newPage();
    await signIn(playerPage, player);
    await playerPage.goto("/leaderboard");
    await expect(playerPage.getByRole("heading", { name: "Leaderboard" })).toBeVisible();
    await expect(playerPage.getByTestId("staff-warnings")).toHaveCount(0);
    await context.close();
  } finally {
    await setConfig("enable_maintenance_mode", false);
    await setConfig("enable_registration", true);
  }
});
