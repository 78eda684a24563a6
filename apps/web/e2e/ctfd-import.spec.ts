import { buildCtfdArchive, renameMember, sampleCtfdEvent } from "@flagship/api/testing/ctfd-archive";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { expectNoAxeViolations, shootBoth } from "./support/axe.ts";
import { database, seedUser, signIn, unique } from "./support/db.ts";

/** Picks a file through a Mantine FileInput (a button that opens the browser's file chooser). */
async function choose(page: Page, input: Locator, file: { name: string; buffer: Buffer }) {
  const chooser = page.waitForEvent("filechooser");
  await input.click();
  await (await chooser).setFiles({ ...file, mimeType: "application/zip" });
}

test("staff check a CTFd export with a dry run, read the report, and import it", async ({ page }) => {
  test.setTimeout(180_000);
  const staff = await seedUser({ isStaff: true });
  // Names of this run only: the server's event is shared with the other journeys.
  const prefix = unique("C");
  const spec = sampleCtfdEvent(`${prefix} `);
  const archive = await buildCtfdArchive(spec);
  await signIn(page, staff);
  await page.goto("/admin/port");
  const section = page.getByRole("region", { name: "Import from CTFd" });
  await expect(section).toBeVisible();
  await expect(section.getByRole("button", { name: "Dry run" })).toBeDisabled();
  // The live region is there before anything happens, so its first message is announced.
  await expect(section.getByRole("status")).toHaveCount(1);
  await expectNoAxeViolations(page);

  // An archive with a path that escapes it: refused with the reason, nothing changes.
  const categoriesBefore = (await database().query<{ n: number }>("SELECT count(*)::int AS n FROM categories")).rows[0]!.n;
  const hostile = renameMember(await buildCtfdArchive({ ...spec, uploads: { "aaaa/xx.txt": "x" } }), "uploads/aaaa/xx.txt", "../../../../etc/pwd");
  await choose(page, section.getByTestId("import-ctfd-file"), { name: "hostile.zip", buffer: hostile });
  await section.getByRole("button", { name: "Dry run" }).click();
  await expect(page.getByText("The dry run failed:")).toBeVisible();
  await expect(page.getByText('The archive contains an unsafe path: "../../../../etc/pwd".')).toBeVisible();
  await expect(section.getByTestId("ctfd-report")).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The real export, challenges only (players would join the shared leaderboard).
  await choose(page, section.getByTestId("import-ctfd-file"), { name: "ctfd-export.zip", buffer: archive });
  await section.getByRole("checkbox", { name: "Also import players, teams and solves" }).uncheck();
  await section.getByRole("button", { name: "Dry run" }).click();
  const report = section.getByRole("region", { name: "Dry run report" });
  await expect(report).toBeVisible();
  await expect(report.getByText("This is what importing ctfd-export.zip would do.", { exact: false })).toBeVisible();
  const stat = (label: string) => report.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd");
  await expect(stat("Categories")).toHaveText("3");
  await expect(stat("Challenges")).toHaveText("4");
  await expect(stat("Dynamic \\(decay\\) challenges")).toHaveText("1");
  await expect(report.locator("dt", { hasText: /^Players$/ })).toHaveCount(0);
  const skipped = report.getByTestId("ctfd-skipped");
  await expect(skipped.getByRole("listitem").filter({ hasText: "multiple_choice" })).toContainText(`For example: ${prefix} Quiz`);
  await expect(skipped.getByRole("listitem").filter({ hasText: "Awards have no equivalent" })).toContainText("1 left out");
  await expect(skipped.getByRole("listitem").filter({ hasText: "Hints players opened" })).toContainText("Hint unlock");
  await expect(report.getByText(/Players were left out: 4 user\(s\), 2 team\(s\) and 4 solve\(s\)/)).toBeVisible();
  // The dry run changed nothing.
  expect((await database().query<{ n: number }>("SELECT count(*)::int AS n FROM categories")).rows[0]!.n).toBe(categoriesBefore);
  // Nothing in the report is wider than a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  // (polled: the sidebar slides away after the resize)
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 720 });
  await shootBoth(page, "port-ctfd-report");

  // Changing the choice asks for a new dry run before importing.
  await section.getByRole("checkbox", { name: "Also import players, teams and solves" }).check();
  await expect(report).toHaveCount(0);
  await section.getByRole("checkbox", { name: "Also import players, teams and solves" }).uncheck();
  await section.getByRole("button", { name: "Dry run" }).click();
  await report.getByRole("button", { name: "Import from CTFd" }).click();
  await expect(page.getByText("Imported from CTFd: 3 categories, 4 challenges, 1 file, 0 players, 0 teams and 0 solves.")).toBeVisible();
  await expect(section.getByTestId("ctfd-report")).toHaveCount(0);
  await shootBoth(page, "port-ctfd-imported");

  const { rows } = await database().query<{ name: string; challenges: string[] }>(
    "SELECT c.name, array_agg(ch.name ORDER BY ch.id) AS challenges FROM categories c JOIN challenges ch ON ch.category_id = c.id WHERE c.name LIKE $1 GROUP BY c.id ORDER BY c.id",
    [`${prefix} %`],
  );
  expect(rows).toEqual([
    { name: `${prefix} Misc`, challenges: [`${prefix} Warmup`] },
    { name: `${prefix} Crypto`, challenges: [`${prefix} Shout`, `${prefix} Pattern`] },
    { name: `${prefix} Web`, challenges: [`${prefix} Falling`] },
  ]);

  const audit = await database().query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'import_ctfd' AND extra->>'challenges' = '4'");
  expect(audit.rows[0]!.n).toBeGreaterThanOrEqual(1);
});
