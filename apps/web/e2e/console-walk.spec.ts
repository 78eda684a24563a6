import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/axe.ts";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { asStaff, clearSchedule, openAdmin } from "./support/console.ts";
import { seedUser, setConfig, signIn, unique } from "./support/db.ts";

/** The console as the walk found it: the pre-event check says what is wrong with the event, the theme builder and the projector board are in the console. */

test("the pre-event check lists a start already past and an end before it, with the way to fix them", async ({ page }) => {
  await asStaff(page);
  const now = Math.floor(Date.now() / 1000);
  try {
    await setConfig("start_time", now - 3600);
    await setConfig("end_time", now - 7200);
    await page.goto("/admin/check");
    const event = page.getByRole("region", { name: "Event" });
    await expect(event.getByText("The event's start is already past")).toBeVisible();
    await expect(event.getByText("The event ends before it starts")).toBeVisible();
    await expect(page.getByTestId("check-passed")).toHaveCount(0);
    await expectAccessible(page);
    await event.getByRole("link", { name: "Set the schedule" }).first().click();
    await expect(page).toHaveURL(/\/admin\/config$/);
  } finally {
    await clearSchedule();
  }
});

test("the theme builder and the projector board are in the console, and the leaderboard links the projector", async ({ page }) => {
  await asStaff(page);
  await page.goto("/leaderboard");
  await expect(page.getByRole("heading", { level: 1, name: "Leaderboard" })).toBeVisible();
  await openAdmin(page, "Theme", "/admin/theme");
  await expect(page.getByRole("button", { name: /save/i }).first()).toBeVisible();
  await expectAccessible(page);
  await openAdmin(page, "Projector Board", "/admin/projector");
  await expectAccessible(page);
  await page.getByRole("link", { name: "Open the projector board" }).click();
  await expect(page).toHaveURL(/\/largeLeaderboard$/);
  await page.goto("/leaderboard");
  await page.getByRole("link", { name: "Projector view" }).click();
  await expect(page).toHaveURL(/\/largeLeaderboard$/);
});

test("the browser tab names the page and the event", async ({ page, request }) => {
  await asStaff(page);
  const eventName = ((await (await request.get("/api/v2/config/")).json()) as { d: { event_name: string } }).d.event_name;
  await page.goto("/leaderboard");
  await expect(page).toHaveTitle(`Leaderboard · ${eventName}`);
  // In-app navigation renames it once the new page's heading is drawn.
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Teams", exact: true }).first().click();
  await expect(page).toHaveTitle(`Teams · ${eventName}`);
  await page.goto("/admin/check");
  await expect(page).toHaveTitle(`Pre-Event Check · ${eventName}`);
});

test("a player opening a challenge whose server no worker runs is told it is not available yet, not that something failed", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Servers "), contained_type: "jeopardy" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: unique("Relay "), score: 100, flag_metadata: { flag: "flag{x}" }, challenge_metadata: { cserv_name: unique("relay-") } });
  const team = await seedTeam();
  await signIn(page, team.members[0]!);
  await page.goto(`/campaign/${category.slug}/${challenge.slug}`);
  const notice = page.getByTestId("instance-unavailable");
  await expect(notice).toContainText("This challenge's server is not available yet.");
  await expect(page.getByText(/Failed to request instance|Challenge servers are disabled/)).toHaveCount(0);
  await expectAccessible(page);
});
