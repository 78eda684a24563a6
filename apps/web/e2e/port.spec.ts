import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { gunzipSync } from "node:zlib";
import { expect, type Locator, type Page, test } from "@playwright/test";
import tar from "tar-stream";
import { shootBoth } from "./support/axe.ts";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { database, seedUser, setConfig, signIn, unique } from "./support/db.ts";

/** Picks files through a Mantine FileInput (a button that opens the browser's file chooser). */
async function choose(page: Page, input: Locator, files: Parameters<import("@playwright/test").FileChooser["setFiles"]>[0]) {
  const chooser = page.waitForEvent("filechooser");
  await input.click();
  await (await chooser).setFiles(files);
}

test("staff export a category as JSON, import it back, refuse bad files and export CSVs", async ({ page, request }) => {
  // A long journey with several accessibility scans: more than the default minute on a busy machine.
  test.setTimeout(180_000);
  const staff = await seedUser({ isStaff: true });
  await seedTeam();
  const name = unique("Forensics ");
  const category = await seedCategory(request, staff, { name, contained_type: "campaign", description: "Dig." });
  const first = await seedChallenge(request, staff, { category: category.id, name: "Disk", score: 100, flag_metadata: { flag: "flag{disk}" }, hints: [{ name: "Mount it", penalty: 10, text: "loop device" }] });
  await seedChallenge(request, staff, { category: category.id, name: "Memory", score: 200, flag_metadata: { flag: "flag{mem}" }, unlock_requirements: `${first.id}` });
  await signIn(page, staff);

  await page.goto("/");
  await expect(page.getByTestId("home-content")).toBeVisible();
  await page.getByRole("navigation").getByText("Admin", { exact: true }).click();
  await page.getByRole("link", { name: "Import/Export" }).click();
  await expect(page).toHaveURL(/\/admin\/port$/);
  await expect(page.getByRole("heading", { level: 1, name: "Import/Export" })).toBeVisible();
  await shootBoth(page, "port");

  await page.getByRole("combobox", { name: "Export category" }).click();
  await page.getByRole("option", { name }).click();
  const exported = page.waitForEvent("download");
  await page.getByRole("region", { name: "Challenges and categories" }).getByRole("button", { name: "Download", exact: true }).first().click();
  const file = await (await exported).path();
  const data = JSON.parse(await readFile(file, "utf8")) as { name: string; challenges: { id: number; name: string; unlocks: number[]; hints: unknown[]; solved?: unknown }[] };
  expect(data.name).toBe(name);
  expect(data.challenges.map((c) => c.name)).toEqual(["Disk", "Memory"]);
  expect(data.challenges[0]).not.toHaveProperty("solved");
  expect(data.challenges[0]!.hints).toEqual([{ name: "Mount it", penalty: 10, requirements: [], text: "loop device" }]);

  // A file that is not JSON, then one that is not a category.
  const input = page.getByTestId("import-category-file");
  await choose(page, input, { name: "broken.json", mimeType: "application/json", buffer: Buffer.from("{not json") });
  await page.getByRole("region", { name: "Challenges and categories" }).getByRole("button", { name: "Import", exact: true }).first().click();
  await expect(page.getByText("Failed to import category:")).toBeVisible();
  await expect(page.getByText("Failed to parse JSON.")).toBeVisible();
  await choose(page, input, { name: "wrong.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify({ name: "x" })) });
  await page.getByRole("region", { name: "Challenges and categories" }).getByRole("button", { name: "Import", exact: true }).first().click();
  await expect(page.getByText("Invalid category data.")).toBeVisible();

  // Category names are unique: the export comes back under the name it had once the original is renamed.
  await database().query("UPDATE categories SET name = $1 WHERE name = $2", [`${name} (before)`, name]);
  await choose(page, input, file);
  await page.getByRole("region", { name: "Challenges and categories" }).getByRole("button", { name: "Import", exact: true }).first().click();
  await expect(page.getByText("Imported category!")).toBeVisible();
  const { rows } = await database().query<{ id: number }>("SELECT id FROM categories WHERE name = ANY($1) ORDER BY id", [[name, `${name} (before)`]]);
  expect(rows).toHaveLength(2);
  const copies = await database().query<{ name: string; unlock_requirements: string; id: number }>("SELECT id, name, unlock_requirements FROM challenges WHERE category_id = $1 ORDER BY id", [rows[1]!.id]);
  expect(copies.rows.map((r) => r.name)).toEqual(["Disk", "Memory"]);
  expect(copies.rows[1]!.unlock_requirements).toBe(String(copies.rows[0]!.id));

  const csv = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export teams" }).click();
  const teams = await readFile(await (await csv).path(), "utf8");
  expect(teams.split("\r\n")[0]).toBe("id,name,visible,owner,password,members,solves");
  const board = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export user leaderboard" }).click();
  expect((await readFile(await (await board).path(), "utf8")).split("\r\n")[0]).toBe("username,points");
});

/** Every entry of a .tar.gz: name to bytes. */
async function archiveEntries(file: string): Promise<Map<string, Buffer>> {
  const extract = tar.extract();
  const entries = new Map<string, Buffer>();
  Readable.from([gunzipSync(await readFile(file))]).pipe(extract);
  for await (const entry of extract) entries.set(entry.header.name, await buffer(entry));
  return entries;
}

test("with importEntire on, staff export the whole event as an archive and cannot import it over a non-empty event", async ({ page, request }) => {
  test.setTimeout(120_000);
  const staff = await seedUser({ isStaff: true });
  const name = unique("Archived ");
  const category = await seedCategory(request, staff, { name, contained_type: "jeopardy", description: "" });
  const first = await seedChallenge(request, staff, { category: category.id, name: "Locked door", score: 50, flag_metadata: { flag: "flag{door}" }, hints: [{ name: "Knock", penalty: 5, text: "twice" }] });
  await seedChallenge(request, staff, { category: category.id, name: "Behind it", score: 60, flag_metadata: { flag: "flag{behind}" }, unlock_requirements: `${first.id}` });
  await signIn(page, staff);
  const { rows } = await database().query<{ value: unknown }>("SELECT value FROM config WHERE key = 'experiments'");
  await setConfig("experiments", { importEntire: true });
  try {
    await page.goto("/admin/port");
    const section = page.getByRole("region", { name: "Whole event" });
    await expect(section).toBeVisible();
    await expect(section.getByRole("button", { name: "Import", exact: true })).toBeDisabled();
    await shootBoth(page, "port-event");

    const exported = page.waitForEvent("download");
    await section.getByRole("button", { name: "Export event" }).click();
    const download = await exported;
    expect(download.suggestedFilename()).toBe("flagship-event.tar.gz");
    const archive = await download.path();
    const entries = await archiveEntries(archive);
    const event = JSON.parse(entries.get("event.json")!.toString()) as {
      config: { experiments: Record<string, boolean> };
      categories: { name: string; challenges: { id: number; name: string; unlocks: number[]; unlock_requirements: string; hints: unknown[] }[] }[];
    };
    expect(event.config.experiments).toEqual({ importEntire: true });
    const ours = event.categories.find((c) => c.name === name)!;
    expect(ours.challenges.map((c) => c.name)).toEqual(["Locked door", "Behind it"]);
    expect(ours.challenges[0]!.hints).toEqual([{ name: "Knock", penalty: 5, requirements: [], text: "twice" }]);
    expect(ours.challenges[0]!.unlocks).toEqual([ours.challenges[1]!.id]);
    expect(ours.challenges[1]!.unlock_requirements).toBe(String(ours.challenges[0]!.id));
    // Every stored file the challenges link to travels with them.
    for (const entry of entries.keys()) expect(entry).toMatch(/^event\.json$|^files\/[0-9a-f]{32}\/[^/]+$/);

    const before = await database().query<{ n: number }>("SELECT count(*)::int AS n FROM challenges");
    const input = page.getByTestId("import-event-file");
    // This server's event is not empty (other journeys share it): the import is refused before
    // the archive is read, and nothing changes. Imports that succeed, and archives refused for
    // what they hold, are proven on their own databases by the integration and contract tests.
    await choose(page, input, archive);
    await section.getByRole("button", { name: "Import", exact: true }).click();
    await expect(page.getByText("Failed to import event:")).toBeVisible();
    await expect(page.getByText("Events can only be imported into an empty event: remove every category first.")).toBeVisible();
    await shootBoth(page, "port-event-refused");
    expect((await database().query<{ n: number }>("SELECT count(*)::int AS n FROM challenges")).rows[0]!.n).toBe(before.rows[0]!.n);
  } finally {
    await setConfig("experiments", rows[0]?.value ?? {});
  }
});

test("players are sent away from /admin/port", async ({ page }) => {
  const player = await seedUser();
  await signIn(page, player);
  await page.goto("/admin/port");
  await expect(page).toHaveURL(/\/campaign$|\/$/);
});
