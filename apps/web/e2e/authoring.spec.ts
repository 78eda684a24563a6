import { expect, test } from "@playwright/test";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { expectNoAxeViolations, shootBoth } from "./support/axe.ts";
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
  // Flag: invalid JSON in the metadata is refused before anything is sent.
  await form.getByTestId("flag-metadata").fill("{not json");
  await form.getByRole("button", { name: "Create challenge" }).click();
  await expect(form.getByText("Flag metadata is not valid JSON.")).toBeVisible();
  await form.getByTestId("flag-metadata").fill("");
  await form.getByTestId("flag-value").fill("flag{keyed}");

  // The unlock editor answers with the parser's messages as it is typed.
  const unlock = form.getByTestId("unlock-input");
  await unlock.fill(`${first.id} OR`);
  await expect(form.getByText("Binary operation 'OR' needs two operands")).toBeVisible();
  await unlock.fill(`${first.id} 7`);
  await expect(form.getByText("Stack contains trailing data")).toBeVisible();
  await unlock.fill("banana");
  await expect(form.getByText("Invalid opcode 'banana'")).toBeVisible();
  await unlock.fill("");
  await form.getByRole("combobox", { name: "Challenge to require" }).click();
  await page.getByRole("option", { name: new RegExp(`Caesar \\(#${first.id}\\)`) }).click();
  await form.getByRole("button", { name: "Add challenge" }).click();
  await expect(unlock).toHaveValue(String(first.id));
  await expect(form.getByTestId("unlock-reading")).toHaveText("Unlocked when: Caesar");

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
  await expect(edit.getByTestId("unlock-input")).toHaveValue(String(first.id));
  await edit.getByRole("textbox", { name: "Score", exact: true }).fill("300");
  await edit.getByLabel("Hint text").fill("Five letters: think of a lemon.");
  await edit.getByRole("button", { name: `Remove notes.pdf` }).click();
  await shootBoth(page, "authoring-edit-challenge");
  const saveButton = edit.getByRole("button", { name: "Save challenge" });
  await saveButton.click();
  await expect(saveButton).not.toHaveAttribute("data-loading");
  await expect(page.getByText("Challenge saved").last()).toBeVisible();
  await expect(page).toHaveURL(/\/vigenere#edit$/);
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
  // A regex the server refuses: its message lands beside the flag metadata, nothing changes.
  await edit.getByTestId("flag-type").click();
  await page.getByRole("option", { name: "regex" }).click();
  await edit.getByTestId("flag-value").fill("(a)\\1");
  await edit.getByRole("textbox", { name: "Score", exact: true }).fill("999");
  await edit.getByRole("button", { name: "Save challenge" }).click();
  await expect(edit.getByText(/RE2 syntax/).first()).toBeVisible();
  await expect(page.getByTestId("editor-error")).toContainText("Error saving challenge:");
  await expect(page).toHaveURL(/#edit$/);
  // The optimistic update is gone again: the challenge still has its old score.
  await edit.getByRole("link", { name: "Stop editing" }).click();
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
  await details.getByRole("combobox", { name: "Type" }).click();
  await expect(page.getByRole("option", { name: "campaign" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("option", { name: "campaign" })).toBeHidden();
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
