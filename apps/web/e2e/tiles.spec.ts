import { expect, test } from "@playwright/test";
import { expectNoAxeViolations, shootBoth, toggleDark } from "./support/axe.ts";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { database, seedUser, signIn, unique } from "./support/db.ts";

async function metadataOf(id: number): Promise<Record<string, unknown>> {
  const { rows } = await database().query<{ challenge_metadata: Record<string, unknown> }>("SELECT challenge_metadata FROM challenges WHERE id = $1", [id]);
  return rows[0]!.challenge_metadata;
}

// Tall enough that the grid's spare row is on screen with everything above it (an announcement bar
// left by earlier journeys, the no-team notice): a drag that has to scroll the page mid-way is not
// what is tested here.
test.use({ viewport: { width: 1280, height: 1100 } });

test("staff move campaign tiles by dragging and with the keyboard; a failed move goes back", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Map "), contained_type: "campaign" });
  const a = await seedChallenge(request, staff, { category: category.id, name: "Alpha", score: 100, flag_metadata: { flag: "flag{a}" } });
  const b = await seedChallenge(request, staff, { category: category.id, name: "Bravo", score: 200, flag_metadata: { flag: "flag{b}" }, unlock_requirements: `${a.id}` });
  const c = await seedChallenge(request, staff, { category: category.id, name: "Charlie", score: 300, flag_metadata: { flag: "flag{c}" }, hidden: true });
  await signIn(page, staff);

  await page.goto(`/campaign/${category.slug}#edit`);
  // Edit mode shows hidden and locked challenges too.
  await expect(page.getByTestId(`tile-${c.id}`)).toBeVisible();
  await expect(page.getByTestId(`tile-${b.id}`)).toBeVisible();
  await shootBoth(page, "tiles-edit");

  await page.getByTestId(`tile-${a.id}`).dragTo(page.locator('[data-cell="4,1"]'));
  await expect(page.locator('[data-cell="4,1"]').getByTestId(`tile-${a.id}`)).toBeVisible();
  await expect.poll(() => metadataOf(a.id)).toMatchObject({ x: 4, y: 1 });

  // Alt + arrow keys move the focused tile one cell.
  await page.getByTestId(`tile-${a.id}`).focus();
  await page.keyboard.press("Alt+ArrowRight");
  await expect(page.locator('[data-cell="5,1"]').getByTestId(`tile-${a.id}`)).toBeVisible();
  await expect.poll(() => metadataOf(a.id)).toMatchObject({ x: 5, y: 1 });

  // Dropping on an occupied cell swaps the two tiles.
  await page.getByTestId(`tile-${b.id}`).dragTo(page.locator('[data-cell="5,1"]'));
  await expect.poll(() => metadataOf(b.id)).toMatchObject({ x: 5, y: 1 });
  // Bravo was auto-placed first in the grid, at (0, 0).
  await expect.poll(() => metadataOf(a.id)).toMatchObject({ x: 0, y: 0 });

  // The move does not reach the server (the connection fails): the tile moves back and the
  // failure is said. The tile stays where it was after the listing is read again.
  await page.route("**/trpc/challenges.update**", (route) => route.abort("connectionfailed"), { times: 1 });
  await page.getByTestId(`tile-${c.id}`).focus();
  await page.keyboard.press("Alt+ArrowDown");
  await expect(page.getByText(/^Error moving challenge: /)).toBeVisible();
  await expect(page.locator('[data-cell="1,0"]').getByTestId(`tile-${c.id}`)).toBeVisible();

  // Clicking a tile in edit mode opens its editor.
  await page.getByTestId(`tile-${b.id}`).click();
  await expect(page).toHaveURL(/\/bravo#edit$/);
});

test("the campaign map fills its canvas and shows progress, points, a legend and the next step; a phone gets a list", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  const category = await seedCategory(request, staff, { name: unique("Voyage "), contained_type: "campaign" });
  const alpha = await seedChallenge(request, staff, { category: category.id, name: "Alpha", score: 50, flag_metadata: { flag: "flag{a}" } });
  await seedChallenge(request, staff, { category: category.id, name: "Bravo", score: 100, flag_metadata: { flag: "flag{b}" }, unlock_requirements: `${alpha.id}` });
  const charlie = await seedChallenge(request, staff, { category: category.id, name: "Charlie", score: 150, flag_metadata: { flag: "flag{c}" } });
  const delta = await seedChallenge(request, staff, { category: category.id, name: "Delta", score: 200, flag_metadata: { flag: "flag{d}" } });
  await seedChallenge(request, staff, { category: category.id, name: "Echo", score: 250, flag_metadata: { flag: "flag{e}" }, unlock_requirements: `${delta.id}` });
  for (const [id, flag] of [[alpha.id, "flag{a}"], [charlie.id, "flag{c}"]] as const) {
    const response = await request.post("/api/v2/challenges/submit_flag/", { headers: { authorization: `Token ${team.members[0]!.token}` }, data: { challenge: id, flag } });
    expect(((await response.json()) as { d: { correct: boolean } }).d.correct).toBe(true);
  }
  await signIn(page, team.members[0]!);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/campaign/${category.slug}`);
  const grid = page.getByTestId("campaign-grid");
  await expect(grid.getByRole("button", { name: /^Alpha, Solved/ })).toBeVisible();

  // Five tiles in a row spread over the canvas, centred, each larger than the old 84 px.
  const viewport = page.getByTestId("campaign-viewport");
  const canvas = (await viewport.boundingBox())!;
  const tiles = await grid.locator(".campaign-tile").evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
  expect(tiles).toHaveLength(5);
  const left = Math.min(...tiles.map((t) => t.left));
  const right = Math.max(...tiles.map((t) => t.right));
  expect(right - left).toBeGreaterThanOrEqual(0.75 * canvas.width);
  expect(Math.abs(left - canvas.x - (canvas.x + canvas.width - right))).toBeLessThanOrEqual(8);
  for (const tile of tiles) expect(tile.width).toBeGreaterThan(120);
  await expect(viewport).toHaveAttribute("data-large", "false");

  // Progress, points on every open tile (the solved ones too), and the legend.
  const summary = page.getByTestId("campaign-summary");
  await expect(summary.getByTestId("campaign-solved")).toHaveText("2 of 5 solved");
  await expect(summary.getByTestId("campaign-points")).toHaveText("200 of 500 points, 1 locked");
  await expect(summary.getByRole("progressbar", { name: "Progress" })).toHaveAttribute("aria-valuenow", "40");
  const solvedAlpha = grid.getByRole("button", { name: "Alpha, Solved, 50 points" });
  await expect(solvedAlpha.getByTestId("tile-points")).toHaveText("50 pts");
  await expect(solvedAlpha.getByTestId("tile-solved")).toBeVisible();
  await expect(grid.getByRole("button", { name: "Charlie, Solved, 150 points" }).getByTestId("tile-points")).toHaveText("150 pts");
  await expect(grid.getByRole("button", { name: "Delta, Unlocked, 200 points" }).getByTestId("tile-points")).toHaveText("200 pts");
  await expect(page.getByRole("list", { name: "Legend" }).getByRole("listitem")).toHaveText(["Solved", "Open", "Locked", "Suggested next"]);

  // The next step: the cheapest open challenge, marked on the map and one click away.
  await expect(grid.getByRole("button", { name: "Bravo, Unlocked, 100 points, suggested next" })).toHaveAttribute("data-next", "true");
  await summary.getByRole("button", { name: "Next: Bravo" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Bravo" })).toBeVisible();
  await dialog.getByRole("button", { name: "Back", exact: true }).click();
  await expect(dialog).toBeHidden();

  await expectNoAxeViolations(page);
  await page.screenshot({ path: "test-results/campaign-map-desktop.png", fullPage: true });
  await toggleDark(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: "test-results/campaign-map-desktop-dark.png", fullPage: true });
  await toggleDark(page);

  // On a phone five tiles do not fit side by side at a readable size: the list comes first.
  await page.setViewportSize({ width: 390, height: 844 });
  const view = page.getByRole("radiogroup", { name: "View" });
  const list = page.getByTestId("campaign-list");
  await expect(list).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(5);
  await expect(list.getByRole("button", { name: /Alpha/ })).toContainText("50 pts");
  await expect(list.getByTestId("unlock-hint")).toHaveText("Solve “Delta” to unlock it.");
  for (const box of await list.getByRole("listitem").evaluateAll((items) => items.map((i) => i.getBoundingClientRect().toJSON() as DOMRect))) {
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(390);
  }
  await list.getByRole("button", { name: /Bravo/ }).click();
  await expect(dialog.getByRole("heading", { name: "Bravo" })).toBeVisible();
  await dialog.getByRole("button", { name: "Back", exact: true }).click();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: "test-results/campaign-map-phone-list.png", fullPage: true });

  // The map, chosen on a phone, opens zoomed out to the width: no tile cut off at the edge.
  await view.getByText("Map").click();
  await expect(viewport).toHaveAttribute("data-large", "true");
  await expect(page.getByRole("group", { name: "Map zoom" })).toBeVisible();
  const pan = viewport.locator(".campaign-pan");
  await expect(pan).toBeVisible();
  await expect.poll(() => viewport.getAttribute("data-scale").then(Number)).toBeLessThan(1);
  const frame = (await pan.boundingBox())!;
  for (const tile of await grid.locator(".campaign-tile").evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect))) {
    expect(tile.left).toBeGreaterThanOrEqual(frame.x - 1);
    expect(tile.right).toBeLessThanOrEqual(frame.x + frame.width + 1);
    expect(tile.right).toBeLessThanOrEqual(390);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: "test-results/campaign-map-phone-map.png", fullPage: true });
  await toggleDark(page);
  await expectNoAxeViolations(page);
});
