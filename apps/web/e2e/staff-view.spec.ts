import { expect, type Page, test } from "@playwright/test";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { expectAccessible, screenshots, toggleDark } from "./support/axe.ts";
import { seedUser, setConfig, signIn, unique } from "./support/db.ts";

/** A category of five: two open, two locked behind the first, one hidden. */
async function seedEvent(request: Parameters<typeof seedCategory>[0]) {
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Staffed "), contained_type: "jeopardy", description: "Everything an organiser checks." });
  const first = await seedChallenge(request, staff, { category: category.id, name: "Open Door", score: 100, flag_metadata: { flag: "flag{door}" } });
  await seedChallenge(request, staff, { category: category.id, name: "Open Window", score: 200, flag_metadata: { flag: "flag{window}" } });
  await seedChallenge(request, staff, { category: category.id, name: "Back Room", score: 300, flag_metadata: { flag: "flag{room}" }, unlock_requirements: `${first.id}` });
  await seedChallenge(request, staff, { category: category.id, name: "Cellar", score: 400, flag_metadata: { flag: "flag{cellar}" }, unlock_requirements: `${first.id}` });
  await seedChallenge(request, staff, { category: category.id, name: "Attic", score: 500, flag_metadata: { flag: "flag{attic}" }, hidden: true });
  return { staff, category };
}

/** Waits until the websocket is up (so an event cannot slip past it), then opens `path` from the sidebar. */
async function withSocket(page: Page, link: string) {
  await page.goto("/debug/ws");
  await expect(page.getByText("Connected", { exact: true })).toBeVisible({ timeout: 15_000 });
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: link, exact: true }).click();
}

test("staff without a team see every challenge, locked and hidden ones marked, no team nag, and a /team of their own", async ({ page, request }) => {
  const { staff, category } = await seedEvent(request);
  await signIn(page, staff);
  await page.goto(`/campaign/${category.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: category.name })).toBeVisible();

  const tiles = page.getByTestId("challenge-tile");
  await expect(tiles).toHaveCount(5);
  await expect(tiles.filter({ has: page.getByTestId("locked-badge") })).toHaveCount(2);
  await expect(tiles.filter({ hasText: "Back Room" }).getByTestId("locked-badge")).toHaveText("Locked");
  await expect(tiles.filter({ hasText: "Attic" }).getByTestId("hidden-badge")).toHaveText("Hidden");
  await expect(page.getByRole("switch", { name: "Show locked" })).toBeChecked();
  await expect(page.getByTestId("team-warning")).toHaveCount(0);
  await expect(page.getByText("You can only submit flags if you are in a team")).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, "staff-view-category");

  // A locked challenge opens in full for staff, saying what players see of it.
  await tiles.filter({ hasText: "Cellar" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Cellar" })).toBeVisible();
  await expect(page.getByTestId("locked-badge")).toBeVisible();
  await expect(page.getByTestId("staff-visibility-note")).toContainText("Solve “Open Door” to unlock it.");
  await expect(page.getByTestId("staff-no-team")).toBeVisible();
  await expect(page.getByTestId("team-warning")).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, "staff-view-challenge");

  // The category cards: every challenge counted, nothing solved yet.
  await page.goto("/campaign");
  const card = page.getByTestId(`category-${category.id}`);
  await expect(card.getByTestId("solved-count")).toHaveText("0 of 5 solved");
  await expect(card.getByTestId("category-points")).toHaveText("0 / 1500 pts");
  await expect(page.getByTestId("team-warning")).toHaveCount(0);

  // /team is not the players' onboarding.
  await page.goto("/team");
  await expect(page.getByTestId("staff-no-team")).toBeVisible();
  await expect(page).toHaveURL(/\/team\/me$/);
  await expect(page.getByRole("heading", { name: /Welcome/ })).toHaveCount(0);
  await expect(page.getByTestId("staff-no-team").getByRole("link", { name: "Manage teams" })).toHaveAttribute("href", "/admin/teams");
  await expectAccessible(page);
  await screenshots(page, "staff-view-team");
  await toggleDark(page);
  await expectAccessible(page);
  await toggleDark(page);
});

test("the 'view as a player' switch previews the event as a player sees it, stays on across reloads and says so", async ({ page, request }) => {
  const { staff, category } = await seedEvent(request);
  await signIn(page, staff);
  await page.goto(`/campaign/${category.slug}`);
  await expect(page.getByTestId("challenge-tile")).toHaveCount(5);
  await expect(page.getByTestId("edit-category")).toBeVisible();

  const toggle = page.getByRole("button", { name: "View as a player" });
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("preview-notice")).toContainText("viewing the event as a player");

  // What a player without a team gets: the open two, locked ones behind "Show locked", no hidden one.
  const tiles = page.getByTestId("challenge-tile");
  await expect(tiles).toHaveCount(2);
  await expect(page.getByRole("switch", { name: "Show locked" })).not.toBeChecked();
  await expect(page.getByText("Attic")).toHaveCount(0);
  await expect(page.getByTestId("team-warning")).toBeVisible();
  await expect(page.getByTestId("edit-category")).toHaveCount(0);
  await page.getByRole("switch", { name: "Show locked" }).click();
  await expect(page.getByTestId("locked-card")).toHaveCount(2);
  await expect(page.getByText("Back Room")).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, "staff-view-preview");
  await toggleDark(page);
  await expectAccessible(page);
  await toggleDark(page);

  // Kept on this browser.
  await page.reload();
  await expect(page.getByTestId("preview-notice")).toBeVisible();
  await expect(tiles).toHaveCount(2);
  await page.goto(`/campaign/${category.slug}/open-door`);
  await expect(page.getByRole("heading", { level: 1, name: "Open Door" })).toBeVisible();
  await expect(page.getByTestId("team-warning")).toBeVisible();
  await expect(page.getByTestId("edit-challenge")).toHaveCount(0);
  await page.goto("/team");
  await expect(page).toHaveURL(/\/welcome$/);

  // And off again, from the notice.
  await page.getByTestId("preview-notice").getByRole("button", { name: "Back to the staff view" }).click();
  await expect(page.getByTestId("preview-notice")).toHaveCount(0);
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await page.goto(`/campaign/${category.slug}`);
  await expect(tiles).toHaveCount(5);
});

test("before the start staff pass the lock page, and the preview shows it as players get it", async ({ page }) => {
  const staff = await seedUser({ isStaff: true });
  await setConfig("start_time", Math.floor(Date.now() / 1000) + 86_400);
  try {
    await signIn(page, staff);
    await page.goto("/campaign");
    await expect(page.getByRole("heading", { level: 1, name: "Challenges" })).toBeVisible();
    await page.getByRole("button", { name: "View as a player" }).click();
    await expect(page.getByTestId("lock-page")).toBeVisible();
    await page.getByRole("button", { name: "Back to the staff view" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Challenges" })).toBeVisible();
  } finally {
    await setConfig("start_time", null);
  }
});

test("notices: no countdown banner for staff beside the header's countdown, and a page does not move when an announcement arrives", async ({ browser, request }) => {
  const staff = await seedUser({ isStaff: true });
  await setConfig("end_time", Math.floor(Date.now() / 1000) + 86_400);
  const ids: number[] = [];
  try {
    const staffContext = await browser.newContext();
    const staffPage = await staffContext.newPage();
    await signIn(staffPage, staff);
    await staffPage.goto("/leaderboard");
    await expect(staffPage.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(staffPage.getByTestId("countdown")).toBeVisible();
    await expect(staffPage.getByText(/The event ends in/)).toHaveCount(0);
    await expect(staffPage.getByTestId("staff-warning-countdown")).toHaveCount(0);
    // The header keeps its countdown, the switch, the bell and the theme on a phone too.
    await screenshots(staffPage, "notices-staff-header");
    await staffContext.close();

    const team = await seedTeam(1);
    const category = await seedCategory(request, staff, { name: unique("Quiet "), contained_type: "jeopardy" });
    await seedChallenge(request, staff, { category: category.id, name: "Steady", score: 100, flag_metadata: { flag: "flag{steady}" } });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, team.members[0]!);
    await withSocket(page, "Leaderboard");
    const heading = page.getByRole("heading", { level: 1, name: "Leaderboard" });
    await expect(heading).toBeVisible();
    // Announcements other journeys left: out of the way, so this page is drawn without the bar.
    while (await page.getByTestId("announcement-bar").isVisible()) await page.getByRole("button", { name: "Hide announcement" }).click();
    await page.reload();
    await expect(heading).toBeVisible();
    await expect(page.getByTestId("announcement-bar")).toHaveCount(0);
    const before = (await heading.boundingBox())!.y;

    const title = unique("Arriving ");
    const posted = await request.post("/api/v2/announcements/", { headers: { authorization: `Token ${staff.token}` }, data: { title, body: "The **crypto** hints are out." } });
    ids.push(((await posted.json()) as { d: { id: number } }).d.id);
    // It is told at once (the toast, the bell), and the page stays where it is.
    await expect(page.getByRole("region", { name: "Notifications" }).getByText(title)).toBeVisible();
    await expect(page.getByRole("button", { name: /Announcements, \d+ unread/ })).toBeVisible();
    await page.waitForTimeout(500);
    expect((await heading.boundingBox())!.y).toBe(before);

    // The next page is drawn with the bar, whose height does not depend on what it says.
    await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Teams", exact: true }).click();
    const challengesHeading = page.getByRole("heading", { level: 1, name: "Teams" });
    await expect(challengesHeading).toBeVisible();
    const bar = page.getByTestId("announcement-bar");
    await expect(bar).toContainText(title);
    const withBar = (await challengesHeading.boundingBox())!.y;
    const longer = unique("Longer ");
    const second = await request.post("/api/v2/announcements/", {
      headers: { authorization: `Token ${staff.token}` },
      data: { title: longer, body: "A much longer announcement.\n\nWith paragraphs,\n\n- and\n- a\n- list\n\nthat would grow a bar that follows its text." },
    });
    ids.push(((await second.json()) as { d: { id: number } }).d.id);
    await expect(bar).toContainText(longer);
    await page.waitForTimeout(300);
    expect((await challengesHeading.boundingBox())!.y).toBe(withBar);
    await expectAccessible(page);
    await screenshots(page, "notices-announcement");
    await context.close();
  } finally {
    await setConfig("end_time", null);
    for (const id of ids) await request.delete(`/api/v2/announcements/${id}/`, { headers: { authorization: `Token ${staff.token}` } });
  }
});

test("the flag field keeps the focus after a wrong and a right guess, and one's own wrong guess makes no toast", async ({ browser, request }) => {
  // Two browsers, four guesses, three accessibility checks and screenshots at two widths: past a
  // minute on a busy machine.
  test.setTimeout(120_000);
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam(2);
  const category = await seedCategory(request, staff, { name: unique("Focus "), contained_type: "jeopardy" });
  await seedChallenge(request, staff, { category: category.id, name: "Keyhole", score: 150, flag_metadata: { flag: "flag{key}" } });
  await seedChallenge(request, staff, { category: category.id, name: "Doorbell", score: 50, flag_metadata: { flag: "flag{bell}" } });

  // A teammate watching: the wrong guess is theirs to be told of.
  const watching = await browser.newContext();
  const teammate = await watching.newPage();
  await signIn(teammate, team.members[1]!);
  await withSocket(teammate, "Leaderboard");

  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, team.members[0]!);
  await withSocket(page, "Leaderboard");
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  // With more than one category in sight the entry opens a submenu; with one it leads straight there.
  const submenu = nav.getByRole("button", { name: /^Challenges/ });
  if ((await submenu.count()) > 0) {
    await submenu.click();
    await nav.getByRole("link", { name: category.name }).click();
  } else {
    await nav.getByRole("link", { name: "Challenges", exact: true }).click();
  }
  await page.getByRole("button", { name: /Keyhole/ }).click();
  const input = page.getByTestId("flag-input");
  await input.fill("flag{wrong}");
  await input.press("Enter");
  await expect(page.getByTestId("flag-incorrect")).toContainText("Incorrect flag");
  await expect(page.getByRole("alert").filter({ hasText: "Incorrect flag" })).toBeVisible();
  await expect(input).toBeFocused();
  // With the button too: the field has the focus back once the answer is in.
  await input.fill("flag{still-wrong}");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByTestId("flag-incorrect")).toBeVisible();
  await expect(input).toBeFocused();

  await expect(teammate.getByText(`${team.members[0]!.username} submitted an incorrect flag for Keyhole`).first()).toBeVisible();
  await expect(page.locator(".mantine-Notification-root")).toHaveCount(0);
  await watching.close();

  // Right: the dialog has the focus, then the answer's place on the page.
  await input.fill("flag{key}");
  await input.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Flag correct!" })).toBeVisible();
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("already-solved")).toBeFocused();
  await expectAccessible(page);

  // The category card: one of two solved, its points of the category's.
  await page.goto("/campaign");
  const card = page.getByTestId(`category-${category.id}`);
  await expect(card.getByTestId("solved-count")).toHaveText("1 of 2 solved");
  await expect(card.getByTestId("category-points")).toHaveText("150 / 200 pts");
  await expect(card.getByTestId("category-state")).toHaveText("In progress");
  await expect(card.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "50");
  await expectAccessible(page);
  await screenshots(page, "category-cards");
  await toggleDark(page);
  await expectAccessible(page);
  await context.close();
});

test("on a campaign map staff see every tile, the locked and hidden ones labelled on their face", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Charted "), contained_type: "campaign" });
  const dock = await seedChallenge(request, staff, { category: category.id, name: "Dock", score: 100, flag_metadata: { flag: "flag{dock}" } });
  await seedChallenge(request, staff, { category: category.id, name: "Reef", score: 200, flag_metadata: { flag: "flag{reef}" }, unlock_requirements: `${dock.id}` });
  await seedChallenge(request, staff, { category: category.id, name: "Wreck", score: 300, flag_metadata: { flag: "flag{wreck}" }, hidden: true });
  await signIn(page, staff);
  await page.goto(`/campaign/${category.slug}`);
  const grid = page.getByTestId("campaign-grid");
  await expect(grid.getByRole("button", { name: /^Reef, Locked/ }).getByTestId("tile-flag")).toHaveText("Locked");
  await expect(grid.getByRole("button", { name: /^Wreck, Hidden/ }).getByTestId("tile-flag")).toHaveText("Hidden");
  await expect(grid.getByRole("button", { name: /^Dock, Unlocked/ }).getByTestId("tile-flag")).toHaveCount(0);
  await expectAccessible(page);
});
