import { expect, test } from "@playwright/test";
import { shootBoth } from "./support/axe.ts";
import { seedCategory, seedChallenge } from "./support/challenges.ts";
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
