import { expect, test } from "@playwright/test";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { expectAccessible, expectNoAxeViolations, shootBoth, toggleDark } from "./support/axe.ts";
import { database, seedUser, signIn, unique } from "./support/db.ts";

test("staff create a category, then a challenge with hints, a file and an unlock, then edit it", async ({ page, request }) => {
  // A long journey with several accessibility scans: more than the default minute on a busy machine.
  test.setTimeout(180_000);
  const staff = await seedUser({ isStaff: true });
  await signIn(page, staff);
  const categoryName = unique("Crypto ");

  await page.goto("/campaign");
  await page.getByRole("link", { name: "New category" }).click();
  await expect(page).toHaveURL(/\/campaign\/new$/);
  await expect(page.getByRole("heading", { level: 1, name: "New category" })).toBeVisible();
  // The name is required: the form says so beside the field and sends nothing.
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByText("Name is required")).toBeVisible();
  await shootBoth(page, "authoring-new-category");
  await page.getByLabel("Name").fill(categoryName);
  await page.getByRole("textbox", { name: "Description" }).fill("Ciphers **old** and new.");
  await page.getByRole("tab", { name: "Preview" }).click();
  await expect(page.getByText("old", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Create" }).click();

  // The new category opens in edit mode.
  await expect(page.getByRole("heading", { level: 1, name: categoryName })).toBeVisible();
  await expect(page).toHaveURL(/#edit$/);
  const bar = page.getByTestId("category-edit-bar");
  await expect(bar.getByRole("link", { name: "Stop editing" })).toBeVisible();
  await expectNoAxeViolations(page);

  // A first challenge to depend on, made through the API.
  const { rows } = await database().query<{ id: number }>("SELECT id FROM categories WHERE name = $1", [categoryName]);
  const first = await seedChallenge(request, staff, { category: rows[0]!.id, name: "Caesar", score: 100, flag_metadata: { flag: "flag{rot}" } });

  await bar.getByRole("link", { name: "New challenge" }).click();
  await expect(page).toHaveURL(/\/new$/);
  const form = page.getByRole("form", { name: /New challenge in/ });
  await form.getByRole("textbox", { name: "Name", exact: true }).fill("Vigenere");
  await form.getByTestId("description-input").fill("A keyed **shift**.");
  await form.getByLabel("Author").fill("ada");
  await form.getByRole("textbox", { name: "Score", exact: true }).fill("250");
  // Flag: invalid JSON in the flag settings under Advanced is refused before anything is sent,
  // and the flag fields say where to fix it.
  await form.getByRole("button", { name: "Advanced" }).click();
  await form.getByTestId("flag-metadata").fill("{not json");
  await expect(form.getByText("The flag settings under Advanced are not valid JSON; fix them there to use these fields.")).toBeVisible();
  await form.getByRole("button", { name: "Create challenge" }).click();
  await expect(form.getByText("The flag settings are not valid JSON.")).toBeVisible();
  await form.getByTestId("flag-metadata").fill("");
  await form.getByTestId("flag-value").fill("flag{keyed}");

  // The stored expression under Advanced answers with the parser's messages as it is typed.
  const unlock = form.getByTestId("unlock-input");
  await unlock.fill(`${first.id} OR`);
  await expect(form.getByText("Binary operation 'OR' needs two operands")).toBeVisible();
  await unlock.fill(`${first.id} 7`);
  await expect(form.getByText("Stack contains trailing data")).toBeVisible();
  await unlock.fill("banana");
  await expect(form.getByText("Invalid opcode 'banana'")).toBeVisible();
  await unlock.fill(`${first.id} ${first.id} AND ${first.id} OR`);
  await expect(form.getByTestId("unlock-complex")).toContainText("mixes AND and OR");
  await form.getByRole("button", { name: "Start a new list" }).click();
  await expect(unlock).toHaveValue("");
  await form.getByLabel("Required challenges").fill("caes");
  // Other journeys' categories may hold a Caesar too: the one of this category is picked.
  await page.getByRole("group", { name: categoryName }).getByRole("option", { name: "Caesar" }).click();
  // Closed, the list of every challenge no longer covers the fields below it.
  await page.keyboard.press("Escape");
  await expect(unlock).toHaveValue(String(first.id));
  await expect(form.getByTestId("unlock-reading")).toHaveText("Unlocks when Caesar is solved");

  await form.getByRole("button", { name: "Add hint" }).click();
  await form.getByLabel("Hint name").fill("Key length");
  await form.getByLabel("Penalty").fill("30");
  await form.getByLabel("Hint text").fill("It is five letters long.");

  const chooser = page.waitForEvent("filechooser");
  await form.getByRole("button", { name: "Upload file" }).click();
  await (await chooser).setFiles({ name: "cipher.txt", mimeType: "text/plain", buffer: Buffer.from("LXFOPVEFRNHR") });
  await expect(form.getByTestId("file-row")).toContainText("cipher.txt");
  await expect(form.getByTestId("file-row")).toContainText("12 Bytes");
  await form.getByRole("button", { name: "Add link" }).click();
  await form.getByLabel("File name").fill("notes.pdf");
  await form.getByLabel("URL").fill("https://example.com/notes.pdf");
  await form.getByLabel("Size (bytes)").fill("2048");
  await form.getByRole("button", { name: "Add link" }).click();
  await expect(form.getByTestId("file-row")).toHaveCount(2);
  await shootBoth(page, "authoring-new-challenge");

  await form.getByRole("button", { name: "Create challenge" }).click();
  // After a save, the challenge's own URL.
  await expect(page).toHaveURL(/\/vigenere$/);
  await expect(page.getByRole("heading", { name: "Vigenere" })).toBeVisible();
  await expect(page.getByTestId("challenge-points")).toHaveText("250 points");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: /cipher\.txt/ }).click();
  expect((await download).suggestedFilename()).toBe("cipher.txt");

  // Edit it: the editor opens with #edit, and a save comes back to #edit.
  await page.getByTestId("edit-challenge").click();
  await expect(page).toHaveURL(/\/vigenere#edit$/);
  const edit = page.getByRole("form", { name: "Edit Vigenere" });
  await expect(edit.getByLabel("Hint name")).toHaveValue("Key length");
  await expect(edit.getByTestId("unlock-reading")).toHaveText("Unlocks when Caesar is solved");
  await expect(edit.getByTestId("save-state")).toHaveText("No unsaved changes");
  await edit.getByRole("textbox", { name: "Score", exact: true }).fill("300");
  await edit.getByLabel("Hint text").fill("Five letters: think of a lemon.");
  await edit.getByRole("button", { name: `Remove notes.pdf` }).click();
  await expect(edit.getByTestId("save-state")).toHaveText("Unsaved changes");
  await shootBoth(page, "authoring-edit-challenge");
  const saveButton = edit.getByRole("button", { name: "Save challenge" });
  await saveButton.click();
  await expect(saveButton).not.toHaveAttribute("data-loading");
  await expect(page.getByText("Challenge saved").last()).toBeVisible();
  await expect(page).toHaveURL(/\/vigenere#edit$/);
  await expect(edit.getByTestId("save-state")).toHaveText("No unsaved changes");
  // The toasts (top right) close by themselves; until then they cover the page's top-right action.
  await expect(page.getByText("Challenge saved")).toHaveCount(0, { timeout: 15_000 });
  await page.getByRole("link", { name: "Stop editing" }).click();
  await expect(page.getByTestId("challenge-points")).toHaveText("300 points");
  await expect(page.getByRole("link", { name: /notes\.pdf/ })).toHaveCount(0);

  // A player in a team sees the challenge locked until Caesar is solved.
  const team = await seedTeam();
  const player = team.members[0]!;
  const playerPage = await page.context().browser()!.newPage();
  await signIn(playerPage, player);
  await playerPage.goto(`/campaign/${rows[0]!.id}`);
  await expect(playerPage.getByRole("button", { name: /Caesar/ })).toBeVisible();
  await expect(playerPage.getByRole("button", { name: /Vigenere/ })).toHaveCount(0);
  await playerPage.close();
});

test("staff remove a challenge and a category; errors on the server are shown beside the field", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Scratch "), contained_type: "jeopardy" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: "Throwaway", score: 50, flag_metadata: { flag: "flag{x}" } });
  await signIn(page, staff);

  await page.goto(`/campaign/${category.slug}/${challenge.slug}#edit`);
  const edit = page.getByRole("form", { name: "Edit Throwaway" });
  // A hashed flag: staff type the flag, the editor fills in its SHA-256.
  await edit.getByTestId("flag-type").click();
  await page.getByRole("option", { name: /^Hashed flag/ }).click();
  await edit.getByTestId("flag-plain").fill("abc");
  await expect(edit.getByTestId("flag-value")).toHaveValue("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // A regex the server refuses: its message lands beside the flag metadata, nothing changes.
  await edit.getByTestId("flag-type").click();
  await page.getByRole("option", { name: /^Pattern/ }).click();
  await edit.getByTestId("flag-value").fill("(a)\\1");
  await edit.getByRole("textbox", { name: "Score", exact: true }).fill("999");
  await edit.getByRole("button", { name: "Save challenge" }).click();
  // Once, beside the flag: the alert by the save bar points there rather than repeating it.
  await expect(page.getByText(/RE2 syntax/)).toHaveCount(1);
  await expect(page.getByTestId("editor-error")).toHaveText("Error saving challenge: Fix the highlighted fields first.");
  // An empty flag likewise.
  await edit.getByTestId("flag-type").click();
  await page.getByRole("option", { name: /^Exact text/ }).click();
  await edit.getByTestId("flag-value").fill("");
  await edit.getByRole("button", { name: "Save challenge" }).click();
  await expect(page.getByText("flag must be a non-empty string.")).toHaveCount(1);
  await expect(edit.getByTestId("flag-value")).toHaveAccessibleDescription(/flag must be a non-empty string/);
  await expect(page).toHaveURL(/#edit$/);
  // The optimistic update is gone again: the challenge still has its old score. Leaving the
  // unsaved edit asks first.
  await edit.getByRole("link", { name: "Stop editing" }).click();
  await page.getByRole("dialog", { name: "Leave without saving?" }).getByRole("button", { name: "Leave without saving" }).click();
  await expect(page.getByTestId("challenge-points")).toHaveText("50 points");
  await page.getByTestId("edit-challenge").click();

  await edit.getByRole("button", { name: "Remove challenge" }).click();
  await page.getByRole("dialog", { name: "Remove challenge" }).getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("Challenge removed.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/campaign/${category.slug}$`));
  await expect(page.getByText("This category has no challenges yet.")).toBeVisible();

  await page.getByTestId("edit-category").click();
  const editDetails = page.getByRole("button", { name: "Edit details" });
  await editDetails.click();
  const details = page.getByRole("dialog", { name: "Edit category" });
  // The form's first field takes focus. Escape in the open type list closes the list only; the
  // next one closes the dialog and focus is back on its button.
  await expect(details.getByLabel("Name")).toBeFocused();
  await details.getByRole("combobox", { name: "Layout" }).click();
  await expect(page.getByRole("option", { name: /^Campaign map/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("option", { name: /^Campaign map/ })).toBeHidden();
  await expect(details).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(details).toBeHidden();
  await expect(editDetails).toBeFocused();
  await editDetails.click();
  await details.getByLabel("Name").fill("Renamed scratch");
  await expectNoAxeViolations(page);
  await details.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Renamed scratch" })).toBeVisible();

  await page.getByRole("button", { name: "Remove category" }).click();
  await page.getByRole("dialog", { name: "Remove category" }).getByRole("button", { name: "Remove" }).click();
  await expect(page).toHaveURL(/\/campaign$/);
  await expect(page.getByText("Renamed scratch")).toHaveCount(0);
});

test("staff author a campaign challenge with forms only: flag, tile position, difficulty and an unlock picked by name", async ({ page, request, browser }) => {
  test.setTimeout(240_000);
  const staff = await seedUser({ isStaff: true });
  await signIn(page, staff);
  const categoryName = unique("House ");
  const slug = unique("house-").toLowerCase();

  // The category: a layout chosen by its name and description, the stored JSON out of the way.
  await page.goto("/campaign/new");
  const layout = page.getByRole("combobox", { name: "Layout" });
  await expect(layout).toHaveValue("Cards");
  await layout.click();
  await expect(page.getByRole("option", { name: /^Cards/ })).toContainText("search, sort and filter");
  await page.getByRole("option", { name: /^Campaign map/ }).click();
  await expect(layout).toHaveAccessibleDescription(/^Challenges as tiles on a map/);
  await page.getByLabel("Name").fill(categoryName);
  await page.getByLabel("Slug").fill(slug);
  await expect(page.getByTestId("category-metadata")).toBeHidden();
  await page.getByRole("button", { name: "Advanced" }).click();
  await expect.poll(async () => JSON.parse(await page.getByTestId("category-metadata").inputValue())).toEqual({ category_slug: slug });
  // Every axe rule, best practices included (heading order, landmarks), then WCAG in both schemes.
  await expectAccessible(page);
  await expectNoAxeViolations(page);
  await toggleDark(page);
  await expectNoAxeViolations(page);
  await shootBoth(page, "authoring-category-form");
  await toggleDark(page);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(new RegExp(`/campaign/${slug}#edit$`));

  const { rows } = await database().query<{ id: number }>("SELECT id FROM categories WHERE name = $1", [categoryName]);
  const categoryId = rows[0]!.id;
  const door = await seedChallenge(request, staff, { category: categoryId, name: unique("Door "), score: 100, flag_metadata: { flag: "flag{door}" } });
  const win = await seedChallenge(request, staff, { category: categoryId, name: unique("Window "), score: 100, flag_metadata: { flag: "flag{window}" } });

  await page.goto(`/campaign/${slug}/new`);
  const form = page.getByRole("form", { name: /New challenge in/ });
  const state = form.getByTestId("save-state");
  await expect(state).toHaveText("Not created yet");
  await form.getByRole("textbox", { name: "Name", exact: true }).fill("Attic");
  await expect(state).toHaveText("Unsaved changes");
  await form.getByTestId("description-input").fill("Up the stairs.");

  // The flag: a type chosen by what it does, its flag typed in a field.
  const flagType = form.getByRole("combobox", { name: "Flag type" });
  await expect(flagType).toHaveValue("Exact text");
  await flagType.click();
  await page.getByRole("option", { name: /^Forgiving text/ }).click();
  await expect(flagType).toHaveAccessibleDescription("Case, accents and spaces are ignored; the prefix and braces are optional.");
  await form.getByTestId("flag-value").fill("flag{up the stairs}");

  // Scoring: 100 points would read Easy; staff set Hard.
  await form.getByRole("textbox", { name: "Score", exact: true }).fill("100");
  const difficulty = form.getByRole("combobox", { name: "Difficulty" });
  await expect(difficulty).toHaveValue("From the points");
  await expect(difficulty).toHaveAccessibleDescription("Follows the points: Easy.");
  await difficulty.click();
  await page.getByRole("option", { name: /^Hard/ }).click();

  // The tile's place on the map, counted from 1.
  await form.getByLabel("Column (1 to 7)").fill("3");
  await form.getByLabel("Row").fill("2");

  // The unlock: challenges picked by name, all or any, read back as a sentence.
  const picker = form.getByLabel("Required challenges");
  await picker.fill("door");
  await page.getByRole("option", { name: door.name }).click();
  await expect(form.getByTestId("unlock-reading")).toHaveText(`Unlocks when ${door.name} is solved`);
  await picker.fill("window");
  await page.getByRole("option", { name: win.name }).click();
  await expect(form.getByTestId("unlock-reading")).toHaveText(`Unlocks when ${door.name} and ${win.name} are solved`);
  // The list stays open for more picks until Escape closes it.
  await page.keyboard.press("Escape");
  await form.getByRole("radio", { name: "Any one of them is solved" }).check();
  await expect(form.getByTestId("unlock-reading")).toHaveText(`Unlocks when ${door.name} or ${win.name} is solved`);
  await form.getByRole("radio", { name: "All of them are solved" }).check();
  await expect(form.getByTestId("unlock-reading")).toHaveText(`Unlocks when ${door.name} and ${win.name} are solved`);

  // Advanced holds the same settings as stored JSON, in step both ways.
  await form.getByRole("button", { name: "Advanced" }).click();
  const stored = form.getByTestId("challenge-metadata");
  await expect.poll(async () => JSON.parse(await stored.inputValue())).toEqual({ difficulty: "hard", x: 2, y: 1 });
  await expect.poll(async () => JSON.parse(await form.getByTestId("flag-metadata").inputValue())).toEqual({ flag: "flag{up the stairs}" });
  await expect(form.getByTestId("unlock-input")).toHaveValue(`${door.id} ${win.id} AND`);
  await stored.fill('{"difficulty": "insane", "x": 2, "y": 1}');
  await expect(difficulty).toHaveValue("Insane");
  await difficulty.click();
  await page.getByRole("option", { name: /^Hard/ }).click();
  await expect.poll(async () => JSON.parse(await stored.inputValue())).toEqual({ difficulty: "hard", x: 2, y: 1 });

  // The save bar stays in view wherever the form is scrolled.
  const bar = form.getByTestId("save-bar");
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(bar).toBeInViewport();
  await expect(bar.getByRole("button", { name: "Create challenge" })).toBeInViewport();
  await expectAccessible(page);
  await expectNoAxeViolations(page);
  await toggleDark(page);
  await expectNoAxeViolations(page);
  await shootBoth(page, "authoring-challenge-form-dark");
  await toggleDark(page);
  await shootBoth(page, "authoring-challenge-form");

  await bar.getByRole("button", { name: "Create challenge" }).click();
  await expect(page).toHaveURL(new RegExp(`/campaign/${slug}/attic$`));
  await expect(page.getByTestId("difficulty")).toHaveText("Hard");
  const { rows: saved } = await database().query<{ id: number; challenge_metadata: Record<string, unknown>; unlock_requirements: string; flag_type: string }>(
    "SELECT id, challenge_metadata, unlock_requirements, flag_type FROM challenges WHERE category_id = $1 AND name = 'Attic'",
    [categoryId],
  );
  expect(saved[0]).toMatchObject({ challenge_metadata: { difficulty: "hard", x: 2, y: 1 }, unlock_requirements: `${door.id} ${win.id} AND`, flag_type: "lenient" });
  const attic = saved[0]!.id;

  // Reopened, the editor reads the stored unlock back as the same sentence.
  await page.goto(`/campaign/${slug}/attic#edit`);
  await expect(page.getByRole("form", { name: "Edit Attic" }).getByTestId("unlock-reading")).toHaveText(`Unlocks when ${door.name} and ${win.name} are solved`, { timeout: 30_000 });

  // A player: Attic is locked until Door and Window are solved, then sits where it was placed,
  // Hard, and its forgiving flag takes a differently written answer.
  const team = await seedTeam();
  const player = await browser.newPage();
  await signIn(player, team.members[0]!);
  await player.goto(`/campaign/${slug}`);
  await expect(player.getByTestId("locked-tile")).toHaveAttribute("aria-label", new RegExp(`${door.name}.*${win.name}`));
  for (const [challenge, flag] of [
    [door.id, "flag{door}"],
    [win.id, "flag{window}"],
  ] as const) {
    const answer = await request.post("/api/v2/challenges/submit_flag/", { headers: { authorization: `Token ${team.members[0]!.token}` }, data: { challenge, flag } });
    expect(((await answer.json()) as { d: { correct: boolean } }).d.correct).toBe(true);
  }
  await player.reload();
  await expect(player.locator('[data-cell="2,1"]')).toContainText("Attic");
  await player.goto(`/campaign/${slug}/attic`);
  await expect(player.getByTestId("difficulty")).toHaveText("Hard");
  const answer = await request.post("/api/v2/challenges/submit_flag/", { headers: { authorization: `Token ${team.members[0]!.token}` }, data: { challenge: attic, flag: "FLAG{Up The Stairs}" } });
  expect(((await answer.json()) as { d: { correct: boolean } }).d.correct).toBe(true);
  await player.close();
});

test("every setting the JSON held has a field: a per-team flag's secret, the partial answer format and the challenge-server job", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Fields "), contained_type: "jeopardy" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: unique("Relay "), score: 50, flag_metadata: { flag: "flag{x}" } });
  await signIn(page, staff);
  await page.goto(`/campaign/${category.slug}/${challenge.slug}#edit`);
  const edit = page.getByRole("form", { name: `Edit ${challenge.name}` });
  await edit.getByTestId("flag-type").click();
  await page.getByRole("option", { name: /^Per-team flag/ }).click();
  await expect(edit.getByTestId("flag-value")).toHaveCount(0);
  await edit.getByTestId("flag-secret").fill("a-secret-of-at-least-sixteen");
  await edit.getByTestId("partial-format").fill("^flag\\{[a-z]*\\}?$");
  await edit.getByTestId("cserv-name").fill("relay-box");
  await edit.getByRole("button", { name: "Advanced" }).click();
  await expect.poll(async () => JSON.parse(await edit.getByTestId("flag-metadata").inputValue())).toEqual({ flag: "flag{x}", secret: "a-secret-of-at-least-sixteen" });
  await expect.poll(async () => JSON.parse(await edit.getByTestId("challenge-metadata").inputValue())).toMatchObject({ flag_partial_regex: "^flag\\{[a-z]*\\}?$", cserv_name: "relay-box" });
  // Emptied, a field leaves the stored JSON too.
  await edit.getByTestId("cserv-name").fill("");
  await expect.poll(async () => JSON.parse(await edit.getByTestId("challenge-metadata").inputValue())).not.toHaveProperty("cserv_name");
  await expectAccessible(page);
});

test("staff schedule a challenge's release in the editor: players do not see it until then; cleared, they do", async ({ page, request, browser }) => {
  test.setTimeout(150_000);
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Timed ") });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: unique("Dawn "), score: 150, flag_metadata: { flag: "flag{dawn}" } });
  const team = await seedTeam();
  const playerContext = await browser.newContext();
  const playerPage = await playerContext.newPage();
  await signIn(playerPage, team.members[0]!);
  const playerSees = async (count: number) => {
    await playerPage.goto(`/campaign/${category.id}`);
    await expect(playerPage.getByRole("heading", { level: 1, name: category.name })).toBeVisible();
    await expect(playerPage.getByRole("button", { name: new RegExp(challenge.name) })).toHaveCount(count);
  };
  await playerSees(1);

  await signIn(page, staff);
  await page.goto(`/campaign/${category.id}/${challenge.id}#edit`);
  const edit = page.getByRole("form", { name: `Edit ${challenge.name}` });
  // The release time is picked as the event's times are: tomorrow, on the calendar.
  await edit.getByTestId("challenge-scheduled-at").click();
  const tomorrow = new Date(Date.now() + 86_400_000);
  const day = page.getByRole("button", { name: `${tomorrow.getDate()} ${tomorrow.toLocaleString("en-GB", { month: "long" })} ${tomorrow.getFullYear()}`, exact: true });
  if (!(await day.first().isVisible())) await page.getByRole("button", { name: /next month/i }).click();
  await day.first().click();
  await page.getByRole("button", { name: "Use this time" }).click();
  await expect(edit.getByTestId("challenge-scheduled-at-preview")).toContainText("UTC");
  await shootBoth(page, "authoring-scheduled-editor");
  const save = edit.getByRole("button", { name: "Save challenge" });
  await save.click();
  await expect(page.getByText("Challenge saved").last()).toBeVisible();
  await expect(edit.getByTestId("save-state")).toHaveText("No unsaved changes");

  // Staff see the schedule on the challenge and on its tile; players do not see the challenge.
  await page.goto(`/campaign/${category.id}/${challenge.id}`);
  await expect(page.getByTestId("scheduled-badge").first()).toContainText("Scheduled for");
  await expect(page.getByTestId("staff-visibility-note")).toContainText("Scheduled: players see this challenge from");
  await page.goto(`/campaign/${category.id}`);
  await expect(page.getByTestId("challenge-tile").filter({ hasText: challenge.name }).getByTestId("scheduled-badge")).toContainText("Scheduled for");
  await shootBoth(page, "authoring-scheduled-tile");
  await playerSees(0);
  await shootBoth(playerPage, "authoring-scheduled-player");

  // Cleared: players see it at once.
  await page.goto(`/campaign/${category.id}/${challenge.id}#edit`);
  await edit.getByRole("button", { name: "Clear Release at" }).click();
  await save.click();
  await expect(edit.getByTestId("save-state")).toHaveText("No unsaved changes");
  await playerSees(1);
  await playerContext.close();
});

test("after a solve, the player is offered the challenge its author suggests next, only when they can see it", async ({ page, request }) => {
  test.setTimeout(120_000);
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Path ") });
  const second = await seedChallenge(request, staff, { category: category.id, name: "Second stop", score: 100, flag_metadata: { flag: "flag{second}" } });
  const first = await seedChallenge(request, staff, { category: category.id, name: "First stop", score: 100, flag_metadata: { flag: "flag{first}" }, next_challenge: second.id });
  // Suggested next, but hidden: never named to players.
  const hidden = await seedChallenge(request, staff, { category: category.id, name: "Secret stop", score: 100, flag_metadata: { flag: "flag{secret}" }, hidden: true });
  await seedChallenge(request, staff, { category: category.id, name: "Side stop", score: 100, flag_metadata: { flag: "flag{side}" }, next_challenge: hidden.id });
  const team = await seedTeam();
  await signIn(page, team.members[0]!);

  await page.goto(`/campaign/${category.id}/${first.id}`);
  await page.getByTestId("flag-input").fill("flag{first}");
  await page.getByRole("button", { name: "Submit" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Flag correct!" })).toBeVisible();
  const next = dialog.getByRole("link", { name: "Next: Second stop" });
  await expect(next).toBeVisible();
  await shootBoth(page, "solved-next-dialog");
  await next.click();
  await expect(page.getByRole("heading", { name: "Second stop" })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // Solved already: the panel offers it too.
  await page.goto(`/campaign/${category.id}/${first.id}`);
  await expect(page.getByTestId("already-solved")).toBeVisible();
  await expect(page.getByRole("link", { name: "Next: Second stop" })).toBeVisible();

  await page.goto(`/campaign/${category.id}`);
  await page.getByRole("button", { name: /Side stop/ }).click();
  await page.getByTestId("flag-input").fill("flag{side}");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("dialog").getByRole("heading", { name: "Flag correct!" })).toBeVisible();
  await expect(page.getByTestId("next-challenge")).toHaveCount(0);
  await expect(page.getByRole("dialog")).not.toContainText("Secret stop");
});

test("staff make one hint open only after another; the player's locked hint says which to open first", async ({ page, request, browser }) => {
  test.setTimeout(150_000);
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Layers ") });
  const challenge = await seedChallenge(request, staff, {
    category: category.id,
    name: unique("Onion "),
    score: 200,
    flag_metadata: { flag: "flag{onion}" },
    hints: [
      { name: "Outer layer", penalty: 10, text: "Base64 first." },
      { name: "Inner layer", penalty: 20, text: "Then XOR with 0x42." },
    ],
  });
  await signIn(page, staff);
  await page.goto(`/campaign/${category.id}/${challenge.id}#edit`);
  const edit = page.getByRole("form", { name: `Edit ${challenge.name}` });
  const inner = edit.getByTestId("hint-row").nth(1);
  await inner.getByRole("combobox", { name: "Opens after" }).click();
  await page.getByRole("option", { name: "Outer layer" }).click();
  await page.keyboard.press("Escape");
  await shootBoth(page, "authoring-hint-requires-editor");
  await edit.getByRole("button", { name: "Save challenge" }).click();
  await expect(page.getByText("Challenge saved").last()).toBeVisible();
  await expect(edit.getByTestId("save-state")).toHaveText("No unsaved changes");

  const team = await seedTeam();
  const playerContext = await browser.newContext();
  const player = await playerContext.newPage();
  await signIn(player, team.members[0]!);
  await player.goto(`/campaign/${category.id}/${challenge.id}`);
  await expect(player.getByRole("heading", { name: challenge.name })).toBeVisible();
  const locked = player.getByTestId("hint-requires");
  await expect(locked).toHaveText("Opens once your team has used “Outer layer”.");
  const useButtons = player.getByRole("button", { name: "Use hint" });
  await expect(useButtons.nth(1)).toBeDisabled();
  await shootBoth(player, "hint-requires-player");
  await useButtons.first().click();
  await player.getByRole("dialog", { name: "Use this hint?" }).getByRole("button", { name: "Use hint" }).click();
  await expect(player.getByText("Base64 first.")).toBeVisible();
  await expect(locked).toHaveCount(0);
  await player.getByRole("button", { name: "Use hint" }).click();
  await player.getByRole("dialog", { name: "Use this hint?" }).getByRole("button", { name: "Use hint" }).click();
  await expect(player.getByText("Then XOR with 0x42.")).toBeVisible();
  await playerContext.close();
});
