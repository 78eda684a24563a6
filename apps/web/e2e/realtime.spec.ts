import { expect, test } from "@playwright/test";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { expectAccessible, screenshots } from "./support/axe.ts";
import { seedUser, setConfig, signIn, unique } from "./support/db.ts";

test("an announcement posted by staff is told live, joins the bar on the next page, and a closed one stays hidden", async ({ browser, request }) => {
  const staff = await seedUser({ isStaff: true });
  const player = await seedUser();
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, player);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.waitForTimeout(500);
  const barShown = await page.getByTestId("announcement-bar").isVisible();

  const res = await request.post("/api/v2/announcements/", {
    headers: { authorization: `Token ${staff.token}` },
    data: { title: "Live announcement", body: "The **web** challenges are back." },
  });
  expect(res.status()).toBe(201);

  // The popup shows it without a reload, rendering the body's markdown as the bar does.
  await expect(page.getByRole("region", { name: "Notifications" }).locator("strong", { hasText: "web" })).toBeVisible();
  const region = page.locator("section[aria-label=Announcements]");
  // A bar already on screen shows it at once; a page drawn without one gets it on the next page,
  // so the page being read does not move down.
  if (!barShown) {
    await expect(region).toHaveCount(0);
    await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Leaderboard" }).click();
  }
  await expect(region.getByText("Live announcement")).toBeVisible();
  await page.getByRole("button", { name: "Hide announcement" }).first().click();
  await expect(region.getByText("Live announcement")).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("section[aria-label=Announcements]").getByText("Live announcement")).toHaveCount(0);
  await context.close();
  // Leave no announcement behind for later journeys.
  const { id } = (await res.json()).d as { id: number };
  expect((await request.delete(`/api/v2/announcements/${id}/`, { headers: { authorization: `Token ${staff.token}` } })).status()).toBe(200);
});

test("the countdown ticks toward the start", async ({ page }) => {
  await setConfig("start_time", Math.floor(Date.now() / 1000) + 3 * 86_400 + 5);
  try {
    await page.goto("/leaderboard");
    // In words: days and hours this far out, named in full for screen readers.
    const countdown = page.getByTestId("countdown");
    await expect(countdown.getByTestId("countdown-time")).toHaveText(/^(3 d|2 d 23 h)$/);
    await expect(countdown).toHaveAttribute("aria-label", /^Starts in (3 days|2 days 23 hours)$/);
    await expect(page.getByTestId("countdown-hint")).toHaveCount(0);
    // Under ten minutes to go, the hint shows and the seconds tick.
    await setConfig("start_time", Math.floor(Date.now() / 1000) + 300);
    await page.reload();
    await expect(page.getByTestId("countdown-hint")).toHaveText("The event starts in under ten minutes. Get ready!");
    const time = countdown.getByTestId("countdown-time");
    await expect(time).toHaveText(/^(5 m|4 m \d{1,2} s)$/);
    const first = await time.textContent();
    await expect.poll(async () => time.textContent(), { timeout: 6000 }).not.toBe(first);
  } finally {
    await setConfig("start_time", null);
  }
});

test("a solve in one browser appears as a toast and on the leaderboard in another, without reloading", async ({ browser, request }) => {
  const staff = await seedUser({ isStaff: true });
  const solvers = await seedTeam();
  const watchers = await seedTeam();
  const category = await seedCategory(request, staff, { name: unique("Live "), contained_type: "jeopardy" });
  await seedChallenge(request, staff, { category: category.id, name: "Live Wire", score: 1_000_000, flag_type: "plaintext", flag_metadata: { flag: "flag{live}" } });

  const watching = await browser.newContext();
  const watcher = await watching.newPage();
  await signIn(watcher, watchers.members[0]!);
  // Wait until the watcher's websocket is up, so the solve event cannot slip past it.
  await watcher.goto("/debug/ws");
  await expect(watcher.getByText("Connected", { exact: true })).toBeVisible({ timeout: 15_000 });
  await watcher.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Leaderboard" }).click();
  await expect(watcher.getByRole("tab", { name: "Teams" })).toHaveAttribute("aria-selected", "true");
  const board = watcher.getByRole("table", { name: "Teams" });
  await expect(board.getByRole("row").nth(1)).toBeVisible();
  // Before the solve the solvers have none of its points (on an empty event they may still be first).
  await expect(board.getByRole("row").filter({ hasText: solvers.name }).filter({ hasText: "1000000" })).toHaveCount(0);

  const solving = await browser.newContext();
  const solver = await solving.newPage();
  await signIn(solver, solvers.members[0]!);
  await solver.goto(`/campaign/${category.slug}/live-wire`);
  await solver.getByTestId("flag-input").fill("flag{live}");
  await solver.getByRole("button", { name: "Submit" }).click();
  await expect(solver.getByRole("dialog").getByRole("heading", { name: "Flag correct!" })).toBeVisible();

  await expect(watcher.getByText(`${solvers.members[0]!.username} (${solvers.name}) solved Live Wire`)).toBeVisible();
  // The solver has the success dialog: no toast of their own solve on top of it.
  await expect(solver.getByText(`${solvers.members[0]!.username} (${solvers.name}) solved Live Wire`)).toHaveCount(0);
  const row = watcher.getByRole("table", { name: "Teams" }).getByRole("row", { name: new RegExp(solvers.name) });
  await expect(row).toContainText("1000000");
  await expect(watcher.getByRole("table", { name: "Teams" }).getByRole("row").nth(1)).toContainText(solvers.name);
  await watcher.screenshot({ path: "test-results/realtime-toast.png" });
  await watching.close();
  await solving.close();
});

test("a toast that arrives while a dialog is open shows above it and closes without closing the dialog", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const player = await seedUser();
  await signIn(page, player);
  // Wait until the websocket is up, so the announcement cannot slip past it.
  await page.goto("/debug/ws");
  await expect(page.getByText("Connected", { exact: true })).toBeVisible({ timeout: 15_000 });
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Settings" }).click();
  await page.getByRole("button", { name: "Delete account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete account" });
  await expect(dialog.getByLabel("Current password")).toBeFocused();

  const title = unique("Over the dialog");
  const res = await request.post("/api/v2/announcements/", { headers: { authorization: `Token ${staff.token}` }, data: { title, body: "Read me." } });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()).d as { id: number };
  try {
    const toast = page.getByRole("region", { name: "Notifications" }).locator(".mantine-Notification-root", { hasText: title });
    await expect(toast).toBeVisible();
    // Drawn above the dialog's overlay: the topmost element at the toast's centre is the toast's own
    // (asked again while the toast is still sliding into its place).
    await expect
      .poll(() =>
        toast.evaluate((el) => {
          const box = el.getBoundingClientRect();
          return el.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
        }),
      )
      .toBe(true);
    await page.screenshot({ path: "test-results/realtime-toast-over-dialog.png" });
    await toast.getByRole("button", { name: "Close" }).click();
    await expect(toast).toHaveCount(0);
    await expect(dialog).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, "realtime-dialog");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("button", { name: "Delete account" })).toBeFocused();
  } finally {
    expect((await request.delete(`/api/v2/announcements/${id}/`, { headers: { authorization: `Token ${staff.token}` } })).status()).toBe(200);
  }
});

test("a signed-in player's pages do not move once drawn: the announcement bar, the description's markdown and the footer", async ({ browser, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam(1);
  const category = await seedCategory(request, staff, { name: unique("Steady "), contained_type: "jeopardy" });
  // A dozen more categories: on a challenges page the sidebar opens their list under its entry.
  for (let i = 0; i < 12; i++) await seedCategory(request, staff, { name: unique("Shelf "), contained_type: "jeopardy" });
  await seedChallenge(request, staff, {
    category: category.id,
    name: "Still Water",
    score: 100,
    flag_metadata: { flag: "flag{still}" },
    description: "# Still water\n\nA **list** of things:\n\n- one\n- two\n- three\n\n```\ncode block\n```",
  });
  const posted = await request.post("/api/v2/announcements/", { headers: { authorization: `Token ${staff.token}` }, data: { title: unique("Steady news "), body: "Nothing **moves**." } });
  const id = ((await posted.json()) as { d: { id: number } }).d.id;
  try {
    for (const viewport of [{ width: 390, height: 844 }, { width: 1440, height: 900 }]) {
      for (const path of [`/campaign/${category.slug}`, `/campaign/${category.slug}/still-water`]) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        await signIn(page, team.members[0]!);
        // Every layout shift not caused by input, from the first paint on (what CLS adds up).
        await page.addInitScript(() => {
          type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] };
          const w = window as unknown as { shifts: number[]; moved: string[] };
          w.shifts = [];
          w.moved = [];
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as Shift[]) {
              if (entry.hadRecentInput) continue;
              w.shifts.push(entry.value);
              // What moved, for the failure message: the element and the start of its text.
              for (const source of entry.sources ?? []) {
                const node = source.node;
                if (node instanceof Element) w.moved.push(`${node.tagName.toLowerCase()}.${[...node.classList].join(".")} "${(node.textContent ?? "").slice(0, 30)}"`);
              }
            }
          }).observe({ type: "layout-shift", buffered: true });
        });
        await page.goto(path);
        await expect(page.getByTestId("announcement-bar")).toBeVisible();
        await expect(page.getByText(path.endsWith("still-water") ? "code block" : "Still Water").first()).toBeVisible();
        // Let late arrivals (counters, fonts, charts) land before adding the shifts up.
        await page.waitForTimeout(1000);
        const { shifts, moved } = await page.evaluate(() => {
          const w = window as unknown as { shifts: number[]; moved: string[] };
          return { shifts: w.shifts, moved: w.moved };
        });
        expect(shifts.reduce((a, b) => a + b, 0), `${path} at ${viewport.width} px; moved: ${moved.join(", ")}`).toBeLessThanOrEqual(0.02);
        // The held shell, once shown, is the ordinary one: accessible, and photographed to look at.
        await expectAccessible(page);
        if (viewport.width === 1440) await screenshots(page, `steady-${path.endsWith("still-water") ? "challenge" : "category"}`);
        await context.close();
      }
    }
  } finally {
    await request.delete(`/api/v2/announcements/${id}/`, { headers: { authorization: `Token ${staff.token}` } });
  }
});
