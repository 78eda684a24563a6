import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { expectAccessible, screenshots, toggleDark } from "./support/axe.ts";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { type SeededUser, seedUser, signIn, unique } from "./support/db.ts";

/** Announcements (bar and inbox), GitHub-flavoured markdown with highlighted code, locked cards that say what unlocks them. */

async function announce(request: APIRequestContext, staff: SeededUser, title: string, body: string): Promise<number> {
  const res = await request.post("/api/v2/announcements/", { headers: { authorization: `Token ${staff.token}` }, data: { title, body } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { d: { id: number } }).d.id;
}

/** Waits for the page's websocket to be up, so an event sent next cannot slip past it. */
async function socketReady(page: Page) {
  await expect(page.getByText(/Lost connection/)).toHaveCount(0);
  await page.waitForLoadState("networkidle");
}

test("announcements: the latest in one bar, the rest in the bell's inbox, unread counted per user and live", async ({ browser, request }) => {
  const staff = await seedUser({ isStaff: true });
  const player = await seedUser();
  const other = await seedUser();
  const ids: number[] = [];
  // Other journeys on the shared server may have left announcements: a new player has those unread too.
  const listed = await request.get("/api/v2/announcements/", { headers: { authorization: `Token ${staff.token}` } });
  const unreadAtStart = `${((await listed.json()) as { d: unknown[] }).d.length + 2}`;
  try {
    ids.push(await announce(request, staff, "Welcome aboard", "Read the **rules** first.\n\n| room | time |\n|---|---|\n| A | 10:00 |"));
    ids.push(await announce(request, staff, "Web is back", "The ~~broken~~ web challenges are fixed.\n\n```python\nprint('hi')\n```"));

    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, player);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

    // One compact bar, with the latest only.
    const bar = page.getByTestId("announcement-bar");
    await expect(bar).toHaveCount(1);
    await expect(bar).toContainText("Web is back");
    await expect(bar).not.toContainText("Welcome aboard");
    await expect(bar.locator("del")).toHaveText("broken");

    // The bell says how many are unread, to screen readers too.
    const bell = page.getByRole("button", { name: `Announcements, ${unreadAtStart} unread` });
    await expect(bell).toBeVisible();
    await expect(page.getByTestId("announcements-unread")).toContainText(unreadAtStart);
    await expectAccessible(page);
    await screenshots(page, "content-announcement-bar");

    await bell.click();
    const inbox = page.getByRole("dialog", { name: "Announcements" });
    // Newest first: ours on top, then any that other journeys left, all unread for this new player.
    const headings = inbox.getByRole("heading", { level: 3 });
    await expect(headings).toHaveCount(Number(unreadAtStart));
    await expect(headings.nth(0)).toHaveText("Web is back");
    await expect(headings.nth(1)).toHaveText("Welcome aboard");
    await expect(inbox.getByText("New", { exact: true })).toHaveCount(Number(unreadAtStart));
    await expect(inbox.locator("strong", { hasText: "rules" })).toBeVisible();
    await expect(inbox.getByRole("table").getByRole("cell", { name: "10:00" })).toBeVisible();
    await expect(inbox.locator("code.hljs span.hljs-built_in", { hasText: "print" })).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, "content-inbox");
    await page.keyboard.press("Escape");
    await expect(inbox).toBeHidden();
    // Focus goes back to the bell; everything is read now.
    await expect(page.getByRole("button", { name: "Announcements", exact: true })).toBeFocused();
    await expect(page.getByTestId("announcements-unread")).not.toContainText(unreadAtStart);

    // Read stays read across a reload; another user on this browser still has both unread.
    await page.reload();
    await expect(page.getByRole("button", { name: "Announcements", exact: true })).toBeVisible();
    await signIn(page, other);
    await page.goto("/");
    await expect(page.getByRole("button", { name: `Announcements, ${unreadAtStart} unread` })).toBeVisible();
    await signIn(page, player);
    await page.goto("/");
    await expect(page.getByRole("button", { name: "Announcements", exact: true })).toBeVisible();

    // A new one over the websocket: the count and the bar follow, and the toast renders its markdown.
    await socketReady(page);
    ids.push(await announce(request, staff, "Hint drop", "Check the **crypto** hints."));
    await expect(page.getByRole("button", { name: "Announcements, 1 unread" })).toBeVisible();
    await expect(bar).toContainText("Hint drop");
    await expect(page.getByRole("region", { name: "Notifications" }).locator("strong", { hasText: "crypto" })).toBeVisible();

    // Hiding the bar hides that one for good (and reads it); an older one does not take its place.
    await bar.getByRole("button", { name: "Hide announcement" }).click();
    await expect(bar).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Announcements", exact: true })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByTestId("announcement-bar")).toHaveCount(0);

    // The inbox still lists all three, in the dark scheme too.
    await page.getByRole("button", { name: "Announcements", exact: true }).click();
    const listed3 = page.getByRole("dialog", { name: "Announcements" }).getByRole("heading", { level: 3 });
    await expect(listed3).toHaveCount(Number(unreadAtStart) + 1);
    for (const [i, title] of ["Hint drop", "Web is back", "Welcome aboard"].entries()) await expect(listed3.nth(i)).toHaveText(title);
    await page.evaluate(() => window.localStorage.setItem("flagship.color-scheme", "dark"));
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
    await page.getByRole("button", { name: "Announcements", exact: true }).click();
    await expect(page.getByRole("dialog", { name: "Announcements" }).locator("code.hljs")).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, "content-inbox-dark");
    await context.close();
  } finally {
    // Leave no announcement behind for later journeys.
    for (const id of ids) await request.delete(`/api/v2/announcements/${id}/`, { headers: { authorization: `Token ${staff.token}` } });
  }
});

test("markdown: GitHub tables, task lists, strikethrough and autolinks, highlighted code, still sanitised; the highlighter loads only for code", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  const category = await seedCategory(request, staff, { name: unique("Docs "), contained_type: "jeopardy" });
  const rich = await seedChallenge(request, staff, {
    category: category.id,
    name: "Rich Text",
    score: 100,
    flag_metadata: { flag: "flag{rich}" },
    description: [
      "| port | service |",
      "|---|---|",
      "| 22 | ssh |",
      "",
      "- [x] recon",
      "- [ ] exploit",
      "",
      "~~old~~ new, see https://example.org/guide",
      "",
      "```c",
      "int main(void) { return 0; } // entry",
      "```",
      "",
      "[bad](javascript:alert(1)) <img src=x onerror=alert(2)> <script>alert(3)</script>",
    ].join("\n"),
  });
  const plain = await seedChallenge(request, staff, { category: category.id, name: "Plain Text", score: 50, flag_metadata: { flag: "flag{plain}" }, description: "Nothing **fancy** here." });
  await signIn(page, team.members[0]!);
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
  });

  await page.goto(`/campaign/${category.slug}/${plain.slug}`);
  await expect(page.locator("strong", { hasText: "fancy" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(scripts.filter((s) => /\/highlight-[^/]*\.js$/.test(s))).toEqual([]);

  await page.goto(`/campaign/${category.slug}/${rich.slug}`);
  const body = page.locator(".fs-markdown");
  await expect(body.getByRole("table").getByRole("cell", { name: "ssh" })).toBeVisible();
  await expect(body.getByRole("checkbox")).toHaveCount(2);
  await expect(body.getByRole("checkbox").first()).toBeChecked();
  await expect(body.getByRole("checkbox").first()).toBeDisabled();
  await expect(body.locator("del")).toHaveText("old");
  await expect(body.getByRole("link", { name: "https://example.org/guide" })).toHaveAttribute("href", "https://example.org/guide");
  await expect(body.locator("code.hljs.language-c span.hljs-type").first()).toHaveText("int");
  await expect(body.locator("code.hljs.language-c span.hljs-keyword").first()).toHaveText("return");
  await expect(body.locator("code.hljs span.hljs-comment")).toHaveText("// entry");
  expect(scripts.filter((s) => /\/highlight-[^/]*\.js$/.test(s))).toHaveLength(1);
  // Still sanitised: no script, no handler, no javascript: link.
  await expect(body.locator("script, img, [onerror]")).toHaveCount(0);
  await expect(body.getByText("bad", { exact: true })).toBeVisible();
  expect(await body.locator("a").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""))).not.toContainEqual(expect.stringMatching(/javascript:/i));
  await expectAccessible(page);
  await screenshots(page, "content-markdown");
  await toggleDark(page);
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  await expectAccessible(page);
  await screenshots(page, "content-markdown-dark");
  await toggleDark(page);
});

test("locked challenges say what unlocks them without naming hidden ones; maintenance and solved are marked", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  const jeopardy = await seedCategory(request, staff, { name: unique("Gates "), contained_type: "jeopardy" });
  const gate = await seedChallenge(request, staff, { category: jeopardy.id, name: "Front Gate", score: 100, flag_metadata: { flag: "flag{gate}" } });
  const vault = await seedChallenge(request, staff, { category: jeopardy.id, name: "Secret Vault", score: 100, hidden: true, flag_metadata: { flag: "flag{vault}" } });
  const inner = await seedChallenge(request, staff, { category: jeopardy.id, name: "Inner Court", score: 200, flag_metadata: { flag: "flag{inner}" }, unlock_requirements: `${gate.id}` });
  await seedChallenge(request, staff, { category: jeopardy.id, name: "Throne Room", score: 300, flag_metadata: { flag: "flag{throne}" }, unlock_requirements: `${gate.id} ${vault.id} AND` });
  await seedChallenge(request, staff, { category: jeopardy.id, name: "Tower", score: 400, flag_metadata: { flag: "flag{tower}" }, unlock_requirements: `${inner.id} ${vault.id} OR` });
  await seedChallenge(request, staff, { category: jeopardy.id, name: "Broken Bridge", score: 150, maintenance: true, flag_metadata: { flag: "flag{bridge}" } });
  await signIn(page, team.members[0]!);

  await page.goto(`/campaign/${jeopardy.slug}`);
  await expect(page.getByRole("button", { name: /Front Gate/ })).toBeVisible();
  await page.getByRole("switch", { name: "Show locked" }).click();
  const hints = page.getByTestId("locked-card").getByTestId("unlock-hint");
  await expect(hints).toHaveCount(3);
  await expect(hints).toContainText([
    "Solve “Front Gate” to unlock it.",
    "Solve “Front Gate” and a hidden challenge to unlock it.",
    "Solve a locked challenge or a hidden challenge to unlock it.",
  ]);
  await expect(page.getByText("Secret Vault")).toHaveCount(0);
  const maintenance = page.getByRole("button", { name: /Broken Bridge/ });
  await expect(maintenance.getByTestId("maintenance-badge")).toHaveText("Maintenance");
  await expect(maintenance).toHaveAttribute("data-maintenance", "true");
  await expectAccessible(page);
  await screenshots(page, "content-locked-jeopardy");
  await toggleDark(page);
  await expectAccessible(page);
  await toggleDark(page);

  // A locked challenge's own page says the same.
  await page.goto(`/campaign/${jeopardy.slug}/${inner.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Locked challenge" })).toBeVisible();
  await expect(page.getByTestId("unlock-hint")).toHaveText("Solve “Front Gate” to unlock it.");

  // On the campaign grid a locked tile is named for it and says it when pressed; maintenance and solved tiles say so in words.
  const campaign = await seedCategory(request, staff, { name: unique("Quest "), contained_type: "campaign" });
  const start = await seedChallenge(request, staff, { category: campaign.id, name: "Start", score: 50, flag_metadata: { flag: "flag{start}" } });
  await seedChallenge(request, staff, { category: campaign.id, name: "Next Step", score: 100, flag_metadata: { flag: "flag{next}" }, unlock_requirements: `${start.id} ${gate.id} OR` });
  await seedChallenge(request, staff, { category: campaign.id, name: "Creaky Door", score: 150, maintenance: true, flag_metadata: { flag: "flag{door}" } });
  const solved = await seedChallenge(request, staff, { category: campaign.id, name: "Done Deal", score: 20, flag_metadata: { flag: "flag{done}" } });
  const submitted = await request.post("/api/v2/challenges/submit_flag/", { headers: { authorization: `Token ${team.members[0]!.token}` }, data: { challenge: solved.id, flag: "flag{done}" } });
  expect(((await submitted.json()) as { d: { correct: boolean } }).d.correct).toBe(true);

  await page.goto(`/campaign/${campaign.slug}`);
  const grid = page.getByTestId("campaign-grid");
  const lockedTile = grid.getByRole("button", { name: "Locked challenge. Solve “Start” or “Front Gate” to unlock it." });
  await expect(lockedTile).toBeVisible();
  await lockedTile.click();
  await expect(page.getByRole("dialog").getByTestId("unlock-hint").or(page.getByTestId("unlock-hint"))).toHaveText("Solve “Start” or “Front Gate” to unlock it.");
  await expectAccessible(page);
  await page.keyboard.press("Escape");
  await expect(grid.getByRole("button", { name: "Creaky Door, Unlocked, Maintenance" }).getByTestId("tile-maintenance")).toHaveText(/Maintenance/);
  await expect(grid.getByRole("button", { name: "Done Deal, Solved" })).toContainText("Solved");
  await screenshots(page, "content-locked-campaign");
  await toggleDark(page);
  await expectAccessible(page);
  await screenshots(page, "content-locked-campaign-dark");
  await toggleDark(page);
});
