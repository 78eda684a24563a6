import { expect, type Page, test } from "@playwright/test";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { seedUser, signIn, unique } from "./support/db.ts";

/**
 * The built web app under the server's Content-Security-Policy: every screen visited here must
 * run without a single violation (a refused script, style, image, connection or frame).
 */

async function recordViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction("reportCspViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation(`${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`);
    });
  });
  return violations;
}

test("the web app runs under the strict Content-Security-Policy without violations", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  const category = await seedCategory(request, staff, { name: unique("CSP "), contained_type: "jeopardy", description: "Check **every** screen." });
  await seedChallenge(request, staff, { category: category.id, name: "Where Is It", score: 100, challenge_type: "map", flag_type: "map", flag_metadata: { location: [10, 10], radius: 100 } });
  await seedChallenge(request, staff, {
    category: category.id,
    name: "Print It",
    score: 100,
    challenge_type: "code",
    challenge_metadata: { code_language: "python", code_default: "def solve():\n    pass" },
    flag_type: "long_text",
    flag_metadata: { flag: "printflag" },
  });
  const violations = await recordViolations(page);

  // Signed out: the runtime settings still reach the page (the footer text).
  const response = await page.goto("/login");
  expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
  await expect(page.getByText("Flagship end-to-end tests")).toBeVisible();
  await page.goto("/register");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  // A player: the game's screens, with the map and the code editor.
  await signIn(page, team.members[0]!);
  for (const path of ["/", "/campaign", `/campaign/${category.id}`, "/leaderboard", "/team", "/settings", "/users"]) {
    await page.goto(path);
    await expect(page.locator("main")).toBeVisible();
    await page.waitForLoadState("networkidle");
  }
  await page.goto(`/campaign/${category.id}`);
  await page.getByRole("button", { name: "Where Is It" }).click();
  await expect(page.getByTestId("flag-map").locator(".leaflet-container")).toBeVisible();
  await page.goto(`/campaign/${category.id}`);
  await page.getByRole("button", { name: "Print It" }).click();
  await expect(page.getByTestId("code-editor").locator(".cm-content")).toContainText("def solve():");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/leaderboard");
  await page.waitForLoadState("networkidle");

  expect(violations).toEqual([]);
});

test("staff screens run under the Content-Security-Policy without violations", async ({ browser }) => {
  const staff = await seedUser({ isStaff: true });
  const page = await browser.newPage();
  const violations = await recordViolations(page);
  await signIn(page, staff);
  for (const path of ["/admin/config", "/admin/challenges", "/admin/members", "/admin/audit", "/admin/outbox"]) {
    await page.goto(path);
    await expect(page.locator("main")).toBeVisible();
    await page.waitForLoadState("networkidle");
  }
  expect(violations).toEqual([]);
  await page.close();
});
