import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe.ts";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { database, seedUser, signIn, unique } from "./support/db.ts";

/** Screenshots and axe at desktop and phone widths; the phone's once the navigation drawer has closed. */
async function checkBoth(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `test-results/${name}-desktop.png`, fullPage: true });
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(600);
  await page.screenshot({ path: `test-results/${name}-phone.png`, fullPage: true });
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("staff watch a wrong flag arrive live, award points to a team and a player and see them on the board and the profile, mark a challenge solved, test a flag without a trace, export the log and read it all in the audit log", async ({ page, request, browser }) => {
  test.setTimeout(180_000);
  const staff = await seedUser({ isStaff: true });
  const [alpha, bravo] = [await seedTeam(), await seedTeam()];
  const category = await seedCategory(request, staff, { name: unique("Moderated "), contained_type: "jeopardy", description: "" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: unique("Broken checker "), score: 100, flag_type: "plaintext", flag_metadata: { flag: "flag{right}" } });
  const guess = unique("flag{guess-");

  // The submissions log, open while a wrong flag arrives.
  await signIn(page, staff);
  await page.goto("/admin/submissions");
  await expect(page.getByRole("heading", { level: 1, name: "Submissions" })).toBeVisible();
  const sent = await request.post("/api/v2/challenges/submit_flag/", { headers: { authorization: `Token ${bravo.members[0]!.token}` }, data: { challenge: challenge.id, flag: guess } });
  expect(((await sent.json()) as { m: string }).m).toBe("incorrect_flag");
  const row = page.getByTestId("submission").filter({ hasText: guess });
  await expect(row).toHaveCount(1);
  await expect(row.getByText("Wrong", { exact: true })).toBeVisible();
  await expect(row.getByText(bravo.name, { exact: true })).toBeVisible();
  await expect(row.getByText(challenge.name, { exact: true })).toBeVisible();
  // Narrowed to the team by its name in the table, then to right flags only: none yet.
  await row.getByRole("button", { name: `Show only ${bravo.name}` }).click();
  await expect(page.getByRole("button", { name: `Clear filter: ${bravo.name}` })).toBeVisible();
  await expect(page.getByTestId("submission")).toHaveCount(1);
  await checkBoth(page, "moderation-submissions");
  await page.getByText("Right", { exact: true }).click();
  await expect(page.getByText("No flag has been sent yet that matches these filters.")).toBeVisible();
  await page.getByText("All", { exact: true }).click();
  await page.getByRole("button", { name: `Clear filter: ${bravo.name}` }).click();

  // An award on Alpha's page: listed with its reason, and on the board.
  await page.goto(`/team/${alpha.id}`);
  const awards = page.getByTestId("awards");
  await expect(awards.getByText("No awards or penalties.")).toBeVisible();
  await awards.getByRole("textbox", { name: "Points" }).fill("150");
  await awards.getByRole("textbox", { name: "Reason" }).fill("Bug bounty: found the scoreboard XSS");
  await awards.getByRole("button", { name: "Save award" }).click();
  await expect(page.getByText("Award saved.")).toBeVisible();
  await expect(awards.getByTestId("award").filter({ hasText: "Bug bounty: found the scoreboard XSS" })).toContainText("+150");
  await checkBoth(page, "moderation-team-awards");
  const audit = await database().query("SELECT 1 FROM audit_log WHERE action = 'give_award' AND (extra->>'team')::int = $1", [alpha.id]);
  expect(audit.rowCount).toBe(1);
  await page.goto("/leaderboard");
  await expect(await boardRow(page, alpha.name)).toContainText("150");

  // An award to one player, on the player's profile: listed there with its reason, in the player's points.
  const player = alpha.members[0]!;
  await page.goto(`/profile/${player.id}`);
  const playerAwards = page.getByTestId("awards");
  await expect(playerAwards.getByText("No awards or penalties.")).toBeVisible();
  await playerAwards.getByRole("textbox", { name: "Points" }).fill("25");
  await playerAwards.getByRole("textbox", { name: "Reason" }).fill("Best writeup of the weekend");
  await playerAwards.getByRole("button", { name: "Save award" }).click();
  await expect(playerAwards.getByTestId("award").filter({ hasText: "Best writeup of the weekend" })).toContainText("+25");
  const member = await request.get(`/api/v2/member/${player.id}/`);
  expect(((await member.json()) as { d: { points: number } }).d.points).toBe(25);
  await checkBoth(page, "moderation-player-awards");
  // The team's page lists the player's award beside the team's own; a player sees both, without the staff form.
  await page.goto(`/team/${alpha.id}`);
  await expect(page.getByTestId("award")).toHaveCount(2);
  const viewer = await browser.newPage();
  try {
    await signIn(viewer, bravo.members[0]!);
    await viewer.goto(`/profile/${player.id}`);
    await expect(viewer.getByTestId("award").filter({ hasText: "Best writeup of the weekend" })).toContainText("+25");
    await expect(viewer.getByRole("button", { name: "Save award" })).toHaveCount(0);
  } finally {
    await viewer.close();
  }

  // The challenge's staff tools: a flag tried leaves no trace; then Bravo is marked solved.
  await page.goto(`/campaign/${category.slug}/${challenge.slug}`);
  const tools = page.getByTestId("challenge-staff-tools");
  await expect(tools).toBeVisible();
  await tools.getByRole("textbox", { name: "Flag" }).fill("flag{right}");
  await tools.getByRole("button", { name: "Test", exact: true }).click();
  await expect(tools.getByTestId("test-flag-result")).toHaveText("Right: this flag solves the challenge.");
  await tools.getByRole("textbox", { name: "Flag" }).fill("flag{not-it}");
  await tools.getByRole("button", { name: "Test", exact: true }).click();
  await expect(tools.getByTestId("test-flag-result")).toHaveText("Wrong: this flag does not solve the challenge.");
  const traces = await database().query(
    "SELECT (SELECT count(*) FROM solves WHERE challenge_id = $1)::int AS solves, (SELECT count(*) FROM incorrect_attempts WHERE challenge_id = $1)::int AS attempts",
    [challenge.id],
  );
  expect(traces.rows[0]).toEqual({ solves: 0, attempts: 1 });
  await checkBoth(page, "moderation-staff-tools");

  await tools.getByRole("combobox", { name: "Team" }).fill(bravo.name);
  await page.getByRole("option", { name: bravo.name }).click();
  await tools.getByRole("button", { name: "Mark solved" }).click();
  await expect(page.getByText(`${bravo.name} solved ${challenge.name}.`)).toBeVisible();
  const solve = await database().query<{ marked: boolean; first_blood: boolean }>("SELECT marked_by_id IS NOT NULL AS marked, first_blood FROM solves WHERE challenge_id = $1 AND team_id = $2", [challenge.id, bravo.id]);
  expect(solve.rows).toEqual([{ marked: true, first_blood: false }]);

  // The board has Bravo's staff-made solve; the flag tried earlier added nothing to anyone.
  await page.goto("/leaderboard");
  await expect(await boardRow(page, bravo.name)).toContainText("100");
  // Alpha: the team's award and its player's.
  await expect(await boardRow(page, alpha.name)).toContainText("175");
  await page.goto("/admin/submissions");
  const marked = page.getByTestId("submission").filter({ hasText: `Marked solved by ${staff.username}` });
  await expect(marked).toHaveCount(1);
  await expect(page.getByTestId("submission").filter({ hasText: challenge.name })).toHaveCount(2);
  // Older pages by "Load more": 60 wrong flags of one team, 50 shown, then the last 10, none twice.
  const charlie = await seedTeam();
  await database().query(
    `INSERT INTO incorrect_attempts (team_id, user_id, challenge_id, flag, timestamp, ip)
     SELECT $1, $2, $3, 'flag{paged-' || g || '}', now() - make_interval(secs => g), '10.0.0.' || g FROM generate_series(1, 60) g`,
    [charlie.id, charlie.members[0]!.id, challenge.id],
  );
  await page.reload();
  await page.getByRole("button", { name: `Show only ${charlie.name}` }).first().click();
  await expect(page.getByTestId("submission")).toHaveCount(50);
  await expect(page.getByTestId("submissions-count")).toHaveText("60 submissions");
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(page.getByTestId("submission")).toHaveCount(60);
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
  const flags = await page.getByTestId("submission").evaluateAll((rows) => rows.map((r) => r.textContent?.match(/flag\{paged-\d+\}/)?.[0]));
  expect(flags).toEqual(Array.from({ length: 60 }, (_, i) => `flag{paged-${i + 1}}`));
  await page.getByRole("button", { name: `Clear filter: ${charlie.name}` }).click();

  // The log as a file: every row of the filtered log, the flag's text in it.
  await page.getByRole("button", { name: `Show only ${bravo.name}` }).first().click();
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  expect(file.suggestedFilename()).toBe("submissions.csv");
  const csv = await readFile((await file.path())!, "utf8");
  expect(csv.split("\r\n")[0]).toBe("time,correct,team_id,team,user_id,user,challenge_id,challenge,flag,ip,marked_by");
  expect(csv).toContain(guess);
  await expect(page.getByText(/^Exported \d+ submissions?\.$/)).toBeVisible();

  // The audit log says what staff did, in words and by name.
  await page.goto("/admin/audit_log");
  await page.getByRole("searchbox", { name: "Staff member" }).fill(staff.username);
  const log = page.getByTestId("audit-log");
  await expect(log.getByText(`Marked ${challenge.name} solved for team ${bravo.name}`, { exact: true })).toBeVisible();
  await expect(log.getByText(`Gave 25 points to player ${player.username}: Best writeup of the weekend`, { exact: true })).toBeVisible();
  await expect(log.getByText(`Gave 150 points to team ${alpha.name}: Bug bounty: found the scoreboard XSS`, { exact: true })).toBeVisible();
  await expect(log.getByText(`Created challenge ${challenge.name} in ${category.name}`, { exact: true })).toBeVisible();
  await expect(log.locator("tbody tr")).toHaveCount(5);
  await log.getByRole("button", { name: `Details of: Gave 150 points to team ${alpha.name}: Bug bounty: found the scoreboard XSS` }).click();
  await expect(log.getByTestId("audit-details")).toContainText("give_award");
  await expect(log.getByTestId("audit-details")).toContainText("points: 150");
  await checkBoth(page, "moderation-audit-log");
});

/** A team's row on the board, loading more of it while the team is further down (the suite's other teams share it). */
async function boardRow(page: Page, name: string) {
  const row = page.getByRole("row").filter({ hasText: name });
  for (let i = 0; i < 20 && (await row.count()) === 0; i++) {
    const more = page.getByRole("button", { name: "Load more" });
    await expect(page.getByRole("row").nth(1)).toBeVisible();
    if ((await row.count()) > 0 || (await more.count()) === 0) break;
    await more.click();
    await page.waitForTimeout(300);
  }
  return row;
}

test("a burst of wrong flags refreshes an open submissions log about once a second, not once a flag, and shows the last of them", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  const category = await seedCategory(request, staff, { name: unique("Burst "), contained_type: "jeopardy", description: "" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: unique("Guessed "), score: 100, flag_type: "plaintext", flag_metadata: { flag: "flag{right}" } });
  await signIn(page, staff);
  await page.goto("/admin/submissions");
  await expect(page.getByRole("heading", { level: 1, name: "Submissions" })).toBeVisible();
  // Loaded: the log's count, or on a fresh event its empty state.
  await expect(page.getByTestId("submissions-count").or(page.getByText("No flag has been sent yet"))).toBeVisible();
  let reads = 0;
  page.on("request", (req) => {
    if (req.url().includes("moderation.submissions")) reads++;
  });
  // Twenty wrong flags, one every tenth of a second or so: each its own event to the staff's browser.
  const burst = unique("flag{burst-");
  const started = Date.now();
  for (let i = 0; i < 20; i++) {
    await request.post("/api/v2/challenges/submit_flag/", { headers: { authorization: `Token ${team.members[0]!.token}` }, data: { challenge: challenge.id, flag: `${burst}${i}}` } });
    await page.waitForTimeout(100);
  }
  await expect(page.getByTestId("submission").filter({ hasText: `${burst}19}` })).toHaveCount(1);
  await page.waitForTimeout(1500);
  // One read at the first flag, then at most one a second while they kept coming, and one after;
  // fewer than one a flag however long a busy machine took to send them.
  const seconds = (Date.now() - started) / 1000;
  expect(reads).toBeGreaterThanOrEqual(1);
  expect(reads).toBeLessThanOrEqual(Math.ceil(seconds) + 3);
  expect(reads).toBeLessThan(20);
});
