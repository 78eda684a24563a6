import { expect, test } from "@playwright/test";
import { shootBoth } from "./support/axe.ts";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { database, seedUser, signIn, unique } from "./support/db.ts";

test("staff see a team's own flag, are told live of suspected sharing, and disqualify the team that sent another's flag", async ({ page, request }) => {
  test.setTimeout(120_000);
  const staff = await seedUser({ isStaff: true });
  const [alpha, bravo] = [await seedTeam(), await seedTeam()];
  const category = await seedCategory(request, staff, { name: unique("Per team "), contained_type: "jeopardy", description: "" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: unique("Own flag "), score: 100, flag_type: "dynamic", flag_metadata: {} });
  const api = (token: string) => ({ authorization: `Token ${token}` });

  // The editor shows staff a team's flag.
  await signIn(page, staff);
  await page.goto(`/campaign/${category.slug}/${challenge.slug}#edit`);
  const lookup = page.getByRole("region", { name: "A team's flag" });
  await lookup.getByRole("combobox", { name: "Team" }).fill(alpha.name);
  await page.getByRole("option", { name: alpha.name }).click();
  await lookup.getByRole("button", { name: "Show flag" }).click();
  const alphaFlag = (await lookup.getByTestId("team-flag").textContent())!;
  expect(alphaFlag).toMatch(/^flag\{[0-9a-f]{32}\}$/);
  const rest = await request.get(`/api/v2/challenges/${challenge.id}/team_flag/${alpha.id}/`, { headers: api(staff.token) });
  expect(((await rest.json()) as { d: { flag: string } }).d.flag).toBe(alphaFlag);

  // Bravo sends Alpha's flag: refused like a wrong flag, recorded as an incident.
  const submit = () => request.post("/api/v2/challenges/submit_flag/", { headers: api(bravo.members[0]!.token), data: { challenge: challenge.id, flag: alphaFlag } });
  expect(((await (await submit()).json()) as { m: string }).m).toBe("incorrect_flag");

  await page.goto("/");
  await expect(page.getByTestId("home-content")).toBeVisible();
  await page.getByRole("navigation").getByText("Admin", { exact: true }).click();
  await page.getByRole("link", { name: "Suspected sharing" }).click();
  await expect(page).toHaveURL(/\/admin\/sharing$/);
  await expect(page.getByRole("heading", { level: 1, name: "Suspected sharing" })).toBeVisible();
  const incident = page.getByTestId("sharing-incident").filter({ hasText: challenge.name });
  await expect(incident).toHaveCount(1);
  await expect(incident.getByText("Another team's flag")).toBeVisible();
  await expect(incident.getByText(bravo.name, { exact: true })).toBeVisible();
  await expect(incident.getByText(alpha.name, { exact: true })).toBeVisible();
  await expect(incident.getByText(alphaFlag)).toBeVisible();
  await shootBoth(page, "sharing");

  // A second attempt while staff watch: a live notice, and the list grows.
  await submit();
  await expect(page.getByText("Suspected flag sharing")).toBeVisible();
  await expect(page.getByText(`${bravo.name} sent the flag of ${alpha.name} for ${challenge.name}.`)).toBeVisible();
  await expect(incident).toHaveCount(2);

  await incident.first().getByRole("button", { name: `Disqualify ${bravo.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Disqualify ${bravo.name}?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Disqualify", exact: true }).click();
  await expect(page.getByText(`${bravo.name} is disqualified.`)).toBeVisible();
  await expect(incident.first().getByText("Disqualified", { exact: true })).toBeVisible();
  await expect(incident.first().getByRole("button", { name: `Disqualify ${alpha.name}` })).toBeVisible();
  const { rows } = await database().query<{ is_visible: boolean }>("SELECT is_visible FROM teams WHERE id = $1", [bravo.id]);
  expect(rows[0]!.is_visible).toBe(false);
  const audit = await database().query("SELECT 1 FROM audit_log WHERE action = 'disqualify_team' AND (extra->>'team')::int = $1", [bravo.id]);
  expect(audit.rowCount).toBe(1);
  await shootBoth(page, "sharing-disqualified");
});

test("players are sent away from /admin/sharing", async ({ page }) => {
  const player = await seedUser();
  await signIn(page, player);
  await page.goto("/admin/sharing");
  await expect(page).toHaveURL(/\/campaign$|\/$/);
});
