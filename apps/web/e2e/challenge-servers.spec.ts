import { execFileSync } from "node:child_process";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { LABELS } from "../../worker/src/challenge-servers/deployer.ts";
import { BANNER_IMAGE, buildBannerImage, readBanner } from "../../worker/src/challenge-servers/test-image.ts";

const DEPLOYMENT_LABEL = LABELS.deployment;
import { E2E_CS_SPARES } from "./support/tier.ts";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { database, seedUser, signIn, unique } from "./support/db.ts";

/**
 * Challenge servers end to end, on the server that runs the worker tier (Redis and one worker on
 * this machine's Docker engine, instances on 127.0.0.1): staff add a job from the challenge's page,
 * watch it become healthy, and a player gets the address, connects and resets it.
 */

test.beforeAll(() => {
  buildBannerImage();
  process.env.E2E_DB_DIR = process.env.E2E_CS_DATA_DIR;
});
test.afterAll(() => {
  delete process.env.E2E_DB_DIR;
});

/** axe on this feature's own screens and parts (the jobs page, the instance panel, the job form). */
async function expectNoAxeViolations(page: Page, include: string) {
  const results = await new AxeBuilder({ page }).include(include).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

function bannerAt(address: string): Promise<string> {
  const [host, port] = address.split(":");
  return readBanner(host!, Number(port));
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/challenge-servers-${name}.png`, fullPage: true });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `test-results/challenge-servers-${name}-phone.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

/**
 * Opens the job form's Advanced section, clicking again until it says it is open: a click lost
 * while the dialog settles left it closed once (its switch was then never found).
 */
async function openAdvanced(dialog: Locator): Promise<void> {
  const control = dialog.getByRole("button", { name: "Advanced" });
  await expect(async () => {
    if ((await control.getAttribute("aria-expanded")) !== "true") await control.click();
    await expect(control).toHaveAttribute("aria-expanded", "true", { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
}

/**
 * Turns a switch on, clicking again until it says so: a click that lands while the Advanced
 * section is still opening can be lost (CI saw the switch stay off once).
 */
async function turnOn(toggle: Locator): Promise<void> {
  await expect(async () => {
    if (!(await toggle.isChecked())) await toggle.click({ force: true });
    await expect(toggle).toBeChecked({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
}

test("staff add a job in the UI; a player sees the instance's address, reaches it and resets it", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  const category = await seedCategory(request, staff, { name: unique("Pwn "), contained_type: "jeopardy" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: "Echo Chamber", score: 300, flag_metadata: { flag: "flag{echo}" } });
  const jobName = unique("echo").toLowerCase();

  const staffPage = await (await browser.newContext()).newPage();
  await signIn(staffPage, staff);
  await staffPage.goto(`/campaign/${category.slug}/${challenge.slug}`);
  await staffPage.getByRole("button", { name: "Add challenge server job" }).click();
  const dialog = staffPage.getByRole("dialog", { name: "Challenge server job" });
  // A new job starts with one shared replica, explained, and memory in GiB or MiB, not bytes.
  await expect(dialog.getByRole("textbox", { name: "Replicas", exact: true })).toHaveValue("1");
  await expect(dialog.getByText(/Copies of the service that all teams share/)).toBeVisible();
  await expect(dialog.getByRole("textbox", { name: "Memory", exact: true })).toHaveValue("1");
  await expect(dialog.getByRole("combobox", { name: "Memory unit" })).toHaveValue("GiB");
  await expect(dialog.getByRole("textbox", { name: "CPUs", exact: true })).toHaveValue("0.2");
  await dialog.getByRole("textbox", { name: "Name", exact: true }).fill(jobName);
  await dialog.getByRole("textbox", { name: "Port", exact: true }).fill("80 80");
  await dialog.getByRole("textbox", { name: "Image", exact: true }).fill(BANNER_IMAGE);
  await dialog.getByRole("button", { name: "Add job" }).click();
  await expect(dialog.getByText("Digits only.")).toBeVisible();
  await dialog.getByRole("textbox", { name: "Port", exact: true }).fill("8000");
  await dialog.getByRole("textbox", { name: "Replicas", exact: true }).fill("2");
  await dialog.getByRole("textbox", { name: "Memory", exact: true }).fill("2");
  await dialog.getByRole("combobox", { name: "Memory unit" }).selectOption("MiB");
  await dialog.getByRole("button", { name: "Add job" }).click();
  await expect(dialog.getByText("Between 6 MiB and 64 GiB.")).toBeVisible();
  await dialog.getByRole("textbox", { name: "Memory", exact: true }).fill("32");
  await dialog.screenshot({ path: "test-results/challenge-servers-job-form-units.png" });
  await expectNoAxeViolations(staffPage, "form[aria-label='Challenge server job']");
  await dialog.getByRole("button", { name: "Add job" }).click();
  await expect(staffPage.getByText("Added job!")).toBeVisible();
  await expect(dialog).toBeHidden();

  await staffPage.getByRole("link", { name: `Job ${jobName}` }).click();
  await expect(staffPage.getByRole("heading", { level: 1, name: "Challenge servers" })).toBeVisible();
  const card = staffPage.getByRole("article", { name: jobName });
  await expect(card.getByTestId("job-health")).toHaveText("2/2 healthy", { timeout: 30_000 });
  await expect(card.getByTestId("job-state")).toHaveText("Running");
  // Stored as the bytes the server keeps; instance states in words.
  const { rows: stored } = await database().query<{ memory: string }>("SELECT memory::text AS memory FROM challenge_server_jobs WHERE name = $1", [jobName]);
  expect(stored[0]?.memory).toBe("33554432");
  await expect(card.getByRole("table", { name: "Instances" }).getByRole("cell", { name: "Healthy", exact: true })).toHaveCount(2);
  await expectNoAxeViolations(staffPage, "main");
  await shoot(staffPage, "jobs");
  await staffPage.close();

  const playerPage = await (await browser.newContext()).newPage();
  await signIn(playerPage, team.members[0]!);
  await playerPage.goto(`/campaign/${category.slug}/${challenge.slug}`);
  const panel = playerPage.getByRole("region", { name: "Challenge server" });
  const address = panel.getByTestId("instance-address");
  await expect(address).toHaveText(/^127\.0\.0\.1:\d+$/, { timeout: 30_000 });
  const first = (await address.textContent())!;
  expect(await bannerAt(first)).toMatch(/^flagship-banner /);
  await expect(panel.getByText(`nc 127.0.0.1 ${first.split(":")[1]}`)).toBeVisible();
  await expectNoAxeViolations(playerPage, "main");
  await shoot(playerPage, "instance");

  await panel.getByRole("button", { name: "Reset instance" }).click();
  const confirm = playerPage.getByRole("dialog", { name: "Reset your instance?" });
  await confirm.getByRole("button", { name: "Reset" }).click();
  await expect(playerPage.getByText("Your instance was reset.")).toBeVisible();
  await expect(address).not.toHaveText(first);
  expect(await bannerAt((await address.textContent())!)).toMatch(/^flagship-banner /);
  await playerPage.close();

  // Deleting the challenge tears its containers down.
  const deleted = await request.delete(`/api/v2/challenges/${challenge.id}/`, { headers: { authorization: `Token ${staff.token}` } });
  expect(deleted.status()).toBe(200);
  await expect.poll(() => containersOf(), { timeout: 30_000 }).toBe(0);
});

/**
 * How many spare networks this run's worker holds unused. Docker making or removing a network
 * aborts the browser's page loads in progress, so pages are opened once the count has settled.
 */
function unusedSpares(): number {
  const lines = (args: string[]) => execFileSync("docker", args).toString().trim().split("\n").filter(Boolean);
  const deployment = `label=${DEPLOYMENT_LABEL}=${process.env.E2E_CS_DEPLOYMENT}`;
  const spares = lines(["network", "ls", "--format", "{{.Name}}", "--filter", deployment, "--filter", `label=${LABELS.spare}`]);
  const used = new Set(lines(["ps", "-a", "--format", "{{.Networks}}", "--filter", deployment]).flatMap((n) => n.split(",")));
  return spares.filter((n) => !used.has(n)).length;
}

/** How many containers this run's worker tier has on the engine. */
function containersOf(): number {
  const out = execFileSync("docker", ["ps", "-aq", "--filter", `label=${DEPLOYMENT_LABEL}=${process.env.E2E_CS_DEPLOYMENT}`]).toString().trim();
  return out === "" ? 0 : out.split("\n").length;
}

test("a dedicated job may name a team flag variable; the server refuses it beside the field for a challenge without per-team flags", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Pwn "), contained_type: "jeopardy" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: "Plain Box", score: 100, flag_metadata: { flag: "flag{plain}" } });
  await signIn(page, staff);
  await page.goto(`/campaign/${category.slug}/${challenge.slug}`);
  await page.getByRole("button", { name: "Add challenge server job" }).click();
  const dialog = page.getByRole("dialog", { name: "Challenge server job" });
  await dialog.getByRole("textbox", { name: "Name", exact: true }).fill(unique("plain").toLowerCase());
  await dialog.getByRole("textbox", { name: "Port", exact: true }).fill("8000");
  await dialog.getByRole("textbox", { name: "Image", exact: true }).fill(BANNER_IMAGE);
  await openAdvanced(dialog);
  await expect(dialog.getByRole("textbox", { name: "Team flag variable" })).toHaveCount(0);
  await turnOn(dialog.getByRole("switch", { name: /One instance per team/ }));
  await dialog.getByRole("textbox", { name: "Team flag variable" }).fill("FLAG");
  await dialog.getByRole("button", { name: "Add job" }).click();
  await expect(dialog.getByText("Only a challenge with per-team (dynamic) flags can hand each team its flag.", { exact: true })).toBeVisible();
  await expectNoAxeViolations(page, "form[aria-label='Challenge server job']");
  await shoot(page, "job-form-flag-variable");
});

test("staff give a dedicated job a warm pool in the form and watch it fill; a player's instance comes from it", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  const category = await seedCategory(request, staff, { name: unique("Pwn "), contained_type: "jeopardy" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: "Warm Box", score: 200, flag_metadata: { flag: "flag{warm}" } });
  const jobName = unique("warm").toLowerCase();

  const staffPage = await (await browser.newContext()).newPage();
  await signIn(staffPage, staff);
  await staffPage.goto(`/campaign/${category.slug}/${challenge.slug}`);
  await staffPage.getByRole("button", { name: "Add challenge server job" }).click();
  const dialog = staffPage.getByRole("dialog", { name: "Challenge server job" });
  await dialog.getByRole("textbox", { name: "Name", exact: true }).fill(jobName);
  await dialog.getByRole("textbox", { name: "Port", exact: true }).fill("8000");
  await dialog.getByRole("textbox", { name: "Memory", exact: true }).fill("32");
  await dialog.getByRole("combobox", { name: "Memory unit" }).selectOption("MiB");
  await dialog.getByRole("textbox", { name: "Image", exact: true }).fill(BANNER_IMAGE);
  await openAdvanced(dialog);
  await expect(dialog.getByRole("textbox", { name: "Warm instances" })).toHaveCount(0);
  await turnOn(dialog.getByRole("switch", { name: /One instance per team/ }));
  const warm = dialog.getByRole("textbox", { name: "Warm instances" });
  await expect(warm).toHaveValue("0");
  // A team flag variable makes every instance different: the server refuses a pool beside the field.
  await warm.fill("2");
  await dialog.getByRole("textbox", { name: "Team flag variable" }).fill("FLAG");
  await dialog.getByRole("button", { name: "Add job" }).click();
  await expect(dialog.getByText(/^Instances carrying a team's own flag differ per team/)).toBeVisible();
  await expectNoAxeViolations(staffPage, "form[aria-label='Challenge server job']");
  await shoot(staffPage, "job-form-warm");
  await dialog.getByRole("textbox", { name: "Team flag variable" }).fill("");
  await warm.fill("two");
  await dialog.getByRole("button", { name: "Add job" }).click();
  await expect(dialog.getByText("Digits only.")).toBeVisible();
  await warm.fill("2");
  await dialog.getByRole("button", { name: "Add job" }).click();
  await expect(staffPage.getByText("Added job!")).toBeVisible();
  await expect(dialog).toBeHidden();

  await staffPage.getByRole("link", { name: `Job ${jobName}` }).click();
  const card = staffPage.getByRole("article", { name: jobName });
  await expect(card.getByTestId("job-warm")).toHaveText("2/2 warm", { timeout: 60_000 });
  const warmRows = card.getByRole("row", { name: /Warm, waiting for a team/ });
  await expect(warmRows).toHaveCount(2);
  const waiting = (await warmRows.allTextContents()).map((text) => /127\.0\.0\.1:\d+/.exec(text)?.[0]);
  await expectNoAxeViolations(staffPage, "main");
  await shoot(staffPage, "jobs-warm");
  await expect.poll(unusedSpares, { timeout: 60_000 }).toBe(E2E_CS_SPARES);

  const playerPage = await (await browser.newContext()).newPage();
  await signIn(playerPage, team.members[0]!);
  await playerPage.goto(`/campaign/${category.slug}/${challenge.slug}`);
  const address = playerPage.getByRole("region", { name: "Challenge server" }).getByTestId("instance-address");
  await expect(address).toHaveText(/^127\.0\.0\.1:\d+$/, { timeout: 30_000 });
  const mine = (await address.textContent())!;
  expect(await bannerAt(mine)).toMatch(/^flagship-banner /);
  // One of the two that were waiting, started before the player asked.
  expect(waiting).toContain(mine);
  await playerPage.close();

  // The team holds one of the warm instances now; the pool fills up again behind it.
  // The instance names its team, not the team's id.
  await expect(card.getByRole("row", { name: new RegExp(`Team: ${team.name}\\b.*${mine.replace(/\./g, "\\.")}`) })).toHaveCount(1, { timeout: 30_000 });
  await expect(card.getByTestId("job-warm")).toHaveText("2/2 warm", { timeout: 60_000 });
  await staffPage.close();
  const deleted = await request.delete(`/api/v2/challenges/${challenge.id}/`, { headers: { authorization: `Token ${staff.token}` } });
  expect(deleted.status()).toBe(200);
  // Its containers go, and with no dedicated job left the worker removes its spares: the next
  // journey's pages load once the networks are done changing.
  await expect.poll(() => containersOf(), { timeout: 60_000 }).toBe(0);
  await expect.poll(unusedSpares, { timeout: 60_000 }).toBe(0);
});

test("a player is told why an instance cannot be had", async ({ browser, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  const category = await seedCategory(request, staff, { name: unique("Broken "), contained_type: "jeopardy" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: "No Registry", score: 100, flag_metadata: { flag: "flag{x}" } });
  const response = await request.post("/api/v2/challengeserver/submit_job/", {
    headers: { authorization: `Token ${staff.token}` },
    data: { challenge_id: challenge.id, job_spec: { name: unique("broken").toLowerCase(), port: 8000, replicas: 1, resources: { memory: 33554432, cpus: 0.1 }, image: "registry.invalid/nowhere/missing:1" } },
  });
  expect(response.status()).toBe(201);
  const page = await (await browser.newContext()).newPage();
  await signIn(page, team.members[0]!);
  await page.goto(`/campaign/${category.slug}/${challenge.slug}`);
  // A plain sentence: the engine's words (the registry, the pull) are for staff.
  const alert = page.getByRole("alert").filter({ hasText: "Failed to request instance:" });
  await expect(alert).toContainText("The challenge server could not be started.", { timeout: 30_000 });
  await expect(alert).not.toContainText("registry.invalid");
  await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
  await page.close();
});

test("staff drain a worker from the workers list: confirmed, audited, shown as drained", async ({ page }) => {
  const staff = await seedUser({ isStaff: true });
  const id = unique("lost-host");
  // A worker of a host whose engine stopped answering (it takes no placements), seen a moment ago.
  await database().query(
    `INSERT INTO challenge_server_workers (id, backend, address, capacity, engine, engine_lost_at, started_at, last_seen) VALUES ($1, 'docker', '10.9.9.9', 10, $2, now(), now(), now() + interval '1 minute')`,
    [id, unique("engine")],
  );
  try {
    await signIn(page, staff);
    await page.goto("/admin/jobs");
    const line = page.getByRole("listitem").filter({ hasText: id });
    await expect(line.getByText("Docker engine not answering")).toBeVisible();
    await line.getByRole("button", { name: `Drain worker ${id}` }).click();
    const confirm = page.getByRole("dialog", { name: `Drain worker ${id}?` });
    await expect(confirm).toContainText("takes no new instances");
    await expectNoAxeViolations(page, "[role=\"dialog\"]");
    await confirm.getByRole("button", { name: "Drain" }).click();
    await expect(page.getByText(`Draining ${id}: 0 instances are moving to other workers.`)).toBeVisible();
    await expect(line.getByText("Drained: it can be stopped")).toBeVisible();
    await expect(line.getByRole("button", { name: `Drain worker ${id}` })).toHaveCount(0);
    const audit = await database().query(`SELECT extra FROM audit_log WHERE action = 'drain_challenge_server_worker' AND extra->>'id' = $1`, [id]);
    expect(audit.rows).toHaveLength(1);
    await expectNoAxeViolations(page, "main");
  } finally {
    await database().query(`DELETE FROM challenge_server_workers WHERE id = $1`, [id]);
  }
});

test("staff see the tier at a glance: workers taking instances, an engine not answering, instances and the queue", async ({ page }) => {
  const staff = await seedUser({ isStaff: true });
  const id = unique("lost-engine");
  // Beside the worker the test server runs: one whose engine stopped answering, seen a moment ago.
  await database().query(
    `INSERT INTO challenge_server_workers (id, backend, address, capacity, engine, engine_lost_at, started_at, last_seen) VALUES ($1, 'docker', '10.9.9.8', 10, $2, now(), now(), now() + interval '1 minute')`,
    [id, unique("engine")],
  );
  try {
    await signIn(page, staff);
    await page.goto("/admin/jobs");
    const overview = page.getByRole("region", { name: "At a glance" });
    await expect(overview.getByTestId("overview-workers")).toContainText(/\d+ of \d+ taking instances/);
    await expect(overview.getByTestId("overview-engines").getByText(/^\d+ not answering$/)).toBeVisible();
    await expect(overview.getByTestId("overview-instances")).toContainText(/\d+ healthy/);
    await expect(overview.getByTestId("overview-queue")).toContainText(/\d+ waiting/);
    await expectNoAxeViolations(page, "[data-testid='tier-overview']");
    await shoot(page, "overview");
  } finally {
    await database().query(`DELETE FROM challenge_server_workers WHERE id = $1`, [id]);
  }
});
