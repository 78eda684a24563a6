import { expect, type Locator, type Page, test } from "@playwright/test";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { expectNoAxeViolations, screenshots, toggleDark } from "./support/axe.ts";
import { contrastRatio, switchColours } from "./support/contrast.ts";
import { seedUser, setConfig, signIn, unique } from "./support/db.ts";

/**
 * A switch can be seen in its present state (WCAG 1.4.11): its track's edge against what is around
 * it, and its thumb against the track, each 3:1 or more.
 */
async function expectSwitchSeen(input: Locator) {
  await expect
    .poll(async () => {
      const { edge, track, thumb, behind } = await switchColours(input);
      return Math.min(contrastRatio(edge, behind), contrastRatio(thumb, track));
    })
    .toBeGreaterThanOrEqual(3);
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/challenges-${name}.png`, fullPage: true });
}

test("jeopardy: a player uses a hint, submits a wrong then a right flag, and rates the challenge", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  const player = team.members[0]!;
  const categoryName = unique("Web ");
  const category = await seedCategory(request, staff, { name: categoryName, contained_type: "jeopardy", description: "Break the **web**." });
  const challenge = await seedChallenge(request, staff, {
    category: category.id,
    name: "Cookie Jar",
    score: 200,
    author: "sam",
    description: "Someone left the cookie jar open. [Docs](https://example.com)",
    flag_type: "plaintext",
    flag_metadata: { flag: "flag{c00kies}" },
    post_score_explanation: "The session cookie was not signed.",
    tags: ["web", "easy"],
    hints: [{ name: "Crumbs", penalty: 25, text: "Look at document.cookie" }],
    files: [{ name: "server.js", url: "/files/server.js", size: 2048 }],
  });
  await seedChallenge(request, staff, { category: category.id, name: "Second Course", score: 400, flag_metadata: { flag: "flag{two}" }, unlock_requirements: `${challenge.id}` });
  await signIn(page, player);

  await page.goto("/campaign");
  const card = page.getByTestId(`category-${category.id}`);
  await expect(card.getByTestId("solved-count")).toHaveText("0 of 2 solved");
  // Said of the team's progress, not of the event (which "not started" read like).
  await expect(card.getByText("None solved yet")).toBeVisible();
  await shoot(page, "campaign-light");
  await card.click();

  await expect(page.getByRole("heading", { level: 1, name: categoryName })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cookie Jar" })).toBeVisible();
  // 'show locked' is off by default; switching it on shows the locked one.
  await expect(page.getByText("Locked challenge")).toHaveCount(0);
  const showLocked = page.getByRole("switch", { name: "Show locked" });
  await expectSwitchSeen(showLocked);
  await showLocked.click();
  await expect(page.getByText("Locked challenge")).toBeVisible();
  await expectSwitchSeen(showLocked);
  await shoot(page, "jeopardy-light");
  await page.getByRole("button", { name: "Cookie Jar" }).click();

  await expect(page).toHaveURL(new RegExp(`/campaign/${category.slug}/cookie-jar$`));
  await expect(page.getByRole("heading", { name: "Cookie Jar" })).toBeVisible();
  await expect(page.getByTestId("challenge-points")).toHaveText("200 points");
  await expect(page.getByText("Medium")).toBeVisible();
  await expect(page.getByRole("link", { name: /server\.js/ })).toContainText("2 KB");

  const useHint = page.getByRole("button", { name: "Use hint" });
  await useHint.click();
  const confirm = page.getByRole("dialog", { name: "Use this hint?" });
  await expect(confirm).toContainText("costs your team 25 points");
  // A click on the backdrop closes the dialog without using the hint; its button has focus again.
  await page.mouse.click(5, 300);
  await expect(confirm).toBeHidden();
  await expect(useHint).toBeFocused();
  await useHint.click();
  await confirm.getByRole("button", { name: "Use hint" }).click();
  await expect(page.getByText("Look at document.cookie")).toBeVisible();

  const input = page.getByTestId("flag-input");
  const submit = page.getByRole("button", { name: "Submit" });
  await input.fill("not a flag");
  await expect(submit).toBeDisabled();
  await input.fill("flag{biscuits}");
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByTestId("flag-incorrect")).toContainText("Incorrect flag");

  await input.fill("flag{c00kies}");
  await submit.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Flag correct!" })).toBeVisible();
  await expect(dialog).toContainText("The session cookie was not signed.");
  // What the team scored: the challenge's 200 less the 25 its hint cost.
  await expect(dialog).toContainText("your team scored 175 points (200 for the challenge, less 25 for hints).");
  await shoot(page, "solved-dialog");
  await dialog.getByRole("button", { name: "I liked it" }).click();
  await expect(dialog.getByTestId("rating")).toHaveText("100% liked");
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("already-solved")).toContainText("You have already solved this challenge!");
  await expect(page.getByText("The session cookie was not signed.")).toBeVisible();
  // The feedback field starts two lines high and grows with what is typed, then is sent and emptied.
  const feedback = page.getByLabel("Feedback");
  const height = () => feedback.evaluate((field) => field.getBoundingClientRect().height);
  const empty = await height();
  await feedback.fill("Loved the cookies.\nThe hint was fair.\nMore like this!\nThanks.");
  expect(await height()).toBeGreaterThan(empty + 40);
  await page.getByRole("button", { name: "Send feedback" }).click();
  await expect(page.getByText("Thanks for your feedback!")).toBeVisible();
  await expect(feedback).toHaveValue("");
  // The solved challenge's page, its "Solved" badge included, passes axe in both schemes.
  await expectNoAxeViolations(page);
  await toggleDark(page);
  await expectNoAxeViolations(page);
  await toggleDark(page);

  // The solved card stands apart from the open ones.
  await page.goto(`/campaign/${category.slug}`);
  const solvedCard = page.getByRole("button", { name: /Cookie Jar/ });
  await expect(solvedCard).toHaveAttribute("data-solved", "true");
  await expect(solvedCard.getByText("Solved", { exact: true })).toBeVisible();
  expect(await solvedCard.evaluate((el) => parseFloat(getComputedStyle(el).borderLeftWidth))).toBeGreaterThan(3);
  await shoot(page, "jeopardy-solved");
  await expectNoAxeViolations(page);

  await page.goto("/campaign");
  await expect(page.getByTestId(`category-${category.id}`).getByTestId("solved-count")).toHaveText("1 of 2 solved");
  const solve = await import("./support/db.ts").then(({ database }) =>
    database().query<{ points: number; penalty: number }>(`SELECT points, penalty FROM solves WHERE challenge_id = $1`, [challenge.id]),
  );
  expect(solve.rows).toEqual([{ points: 200, penalty: 25 }]);
});

test("campaign grid: tiles open in a modal with Back, and solving unlocks the next tile", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  await signIn(page, team.members[0]!);
  const category = await seedCategory(request, staff, { name: unique("Story "), contained_type: "campaign" });
  const first = await seedChallenge(request, staff, { category: category.id, name: "Prologue", score: 50, challenge_type: "freeform", flag_type: "lenient", flag_metadata: { flag: "open sesame" }, tags: ["story"] });
  await seedChallenge(request, staff, { category: category.id, name: "Chapter One", score: 100, flag_metadata: { flag: "flag{1}" }, unlock_requirements: `${first.id}`, tags: ["story"] });
  await seedChallenge(request, staff, { category: category.id, name: "Side Quest", score: 150, flag_metadata: { flag: "flag{side}" }, tags: ["bonus"] });

  await page.goto(`/campaign/${category.id}`);
  const grid = page.getByTestId("campaign-grid");
  await expect(grid.getByRole("button", { name: "Prologue, Unlocked" })).toBeVisible();
  await expect(grid.getByRole("button", { name: "Locked challenge. Solve “Prologue” to unlock it." })).toBeVisible();
  await expect(page.getByRole("button", { name: "story (1)" })).toBeVisible();
  await expect(page.getByRole("button", { name: "bonus (1)" })).toBeVisible();
  await shoot(page, "campaign-grid");

  await grid.getByRole("button", { name: "Prologue, Unlocked" }).click();
  const modal = page.getByRole("dialog");
  await expect(modal.getByRole("heading", { name: "Prologue" })).toBeVisible();
  await modal.getByRole("button", { name: "Back", exact: true }).click();
  await expect(modal).toBeHidden();

  await grid.getByRole("button", { name: "Prologue, Unlocked" }).click();
  await page.getByTestId("flag-input").fill("Open Sesame");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("heading", { name: "Flag correct!" })).toBeVisible();
  // The success dialog opens over the tile's: Escape closes the newer one only.
  await page.keyboard.press("Escape");
  await expect(page.getByRole("heading", { name: "Flag correct!" })).toBeHidden();
  await expect(page.getByRole("dialog")).toHaveCount(1);
  await expect(modal.getByRole("heading", { name: "Prologue" })).toBeVisible();
  await modal.getByRole("button", { name: "Back", exact: true }).click();
  await expect(grid.getByRole("button", { name: "Prologue, Solved" })).toBeVisible();
  await expect(grid.getByRole("button", { name: "Chapter One, Unlocked" })).toBeVisible();
  await expect(grid.locator('.campaign-link[data-state="unlocked"]')).toHaveCount(1);
});

test("campaign map: zoom buttons, drag to pan, tiles still open by click and Enter", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  await signIn(page, team.members[0]!);
  const category = await seedCategory(request, staff, { name: unique("Atlas "), contained_type: "campaign" });
  // A tile nine rows down makes the map taller than its box.
  const gateTile = await seedChallenge(request, staff, { category: category.id, name: "Gate", score: 50, flag_metadata: { flag: "flag{gate}" }, challenge_metadata: { x: 0, y: 0 } });
  await seedChallenge(request, staff, { category: category.id, name: "Bridge", score: 100, flag_metadata: { flag: "flag{bridge}" }, challenge_metadata: { x: 1, y: 0 }, unlock_requirements: `${gateTile.id}` });
  await seedChallenge(request, staff, { category: category.id, name: "Keep", score: 200, flag_metadata: { flag: "flag{keep}" }, challenge_metadata: { x: 3, y: 2 } });
  await seedChallenge(request, staff, { category: category.id, name: "Far Tower", score: 300, flag_metadata: { flag: "flag{far}" }, challenge_metadata: { x: 6, y: 8 } });

  await page.goto(`/campaign/${category.id}`);
  const viewport = page.getByTestId("campaign-viewport");
  const content = viewport.locator(".react-transform-component");
  const gate = page.getByRole("button", { name: "Gate, Unlocked" });
  const tower = page.getByRole("button", { name: "Far Tower, Unlocked" });
  const dialog = page.getByRole("dialog");
  await expect(gate).toBeVisible();
  await expect(viewport).toHaveAttribute("data-large", "true");
  await expect(tower).not.toBeInViewport();

  const zoom = page.getByRole("group", { name: "Map zoom" });
  await expect(viewport).toHaveAttribute("data-scale", "1.00");
  await zoom.getByRole("button", { name: "Zoom in" }).click();
  await expect(viewport).toHaveAttribute("data-scale", "1.25");
  await zoom.getByRole("button", { name: "Zoom in" }).click();
  await expect(viewport).toHaveAttribute("data-scale", "1.50");
  await zoom.getByRole("button", { name: "Zoom out" }).click();
  await expect(viewport).toHaveAttribute("data-scale", "1.25");
  await zoom.getByRole("button", { name: "Reset zoom" }).click();
  await expect(viewport).toHaveAttribute("data-scale", "1.00");
  await expect(content).toHaveCSS("transform", "matrix(1, 0, 0, 1, 0, 0)");

  // A drag that starts on a tile pans the map and does not open the tile.
  await gate.evaluate((el) => el.addEventListener("click", () => el.setAttribute("data-clicked", "true")));
  const box = (await gate.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - 40, { steps: 8 });
  await page.mouse.up();
  await expect(content).not.toHaveCSS("transform", "matrix(1, 0, 0, 1, 0, 0)");
  await expect(gate).not.toHaveAttribute("data-clicked");
  await expect(dialog).toBeHidden();
  await zoom.getByRole("button", { name: "Reset zoom" }).click();
  await expect(content).toHaveCSS("transform", "matrix(1, 0, 0, 1, 0, 0)");

  // A plain click still opens the tile.
  await gate.click();
  await expect(dialog.getByRole("heading", { name: "Gate" })).toBeVisible();
  await dialog.getByRole("button", { name: "Back", exact: true }).click();
  await expect(dialog).toBeHidden();

  // Tabbing to a tile off the box pans it into view; Enter opens it.
  await page.getByRole("button", { name: "Keep, Unlocked" }).focus();
  await page.keyboard.press("Tab");
  await expect(tower).toBeFocused();
  await expect(tower).toBeInViewport({ ratio: 0.95 });
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("heading", { name: "Far Tower" })).toBeVisible();
  await dialog.getByRole("button", { name: "Back", exact: true }).click();
  await expect(dialog).toBeHidden();

  await zoom.getByRole("button", { name: "Reset zoom" }).click();
  await expect(content).toHaveCSS("transform", "matrix(1, 0, 0, 1, 0, 0)");
  await expectNoAxeViolations(page);
  await screenshots(page, "campaign-zoom");
  await toggleDark(page);
  await expectNoAxeViolations(page);
});

test("campaign map: a map that fits is drawn plainly without the pan-and-zoom code; on a phone a list, or the map zoomed to the width", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  await signIn(page, team.members[0]!);
  const category = await seedCategory(request, staff, { name: unique("Harbour "), contained_type: "campaign" });
  const first = await seedChallenge(request, staff, { category: category.id, name: "Pier", score: 50, flag_metadata: { flag: "flag{pier}" }, challenge_metadata: { x: 0, y: 0 } });
  await seedChallenge(request, staff, { category: category.id, name: "Lighthouse", score: 100, flag_metadata: { flag: "flag{light}" }, challenge_metadata: { x: 6, y: 1 }, unlock_requirements: `${first.id}` });
  const panZoomChunks: string[] = [];
  page.on("request", (r) => {
    if (/\/assets\/CampaignPanZoom-[^/]*\.js$/.test(r.url())) panZoomChunks.push(r.url());
  });
  const viewport = page.getByTestId("campaign-viewport");
  const zoom = page.getByRole("group", { name: "Map zoom" });
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  // Two rows of seven fit a desktop box: no controls, and the library is never fetched.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/campaign/${category.slug}`);
  await expect(page.getByRole("button", { name: "Pier, Unlocked" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expect(viewport).toHaveAttribute("data-large", "false");
  await expect(zoom).toHaveCount(0);
  expect(panZoomChunks).toEqual([]);

  // On a phone the seven columns are wider than the box: the list comes first; the map, chosen,
  // loads the library, opens zoomed out to the box's width and pans inside it, and the page is no
  // wider than the window.
  await page.setViewportSize({ width: 390, height: 844 });
  const view = page.getByRole("radiogroup", { name: "View" });
  await expect(page.getByTestId("campaign-list")).toBeVisible();
  await view.getByText("Map").click();
  await expect(viewport).toHaveAttribute("data-large", "true");
  await expect(zoom).toBeVisible();
  expect(panZoomChunks).toHaveLength(1);
  const box = (await viewport.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await overflow()).toBe(0);
  await expect(page.getByRole("button", { name: "Pier, Unlocked" })).toBeInViewport({ ratio: 0.99 });
  // The far corner too (rounded to a pixel's fraction at the fitted scale).
  await expect(page.getByTestId("locked-tile")).toBeInViewport({ ratio: 0.99 });

  // Opened on a phone from the start, too.
  await page.reload();
  await expect(page.getByTestId("campaign-list")).toBeVisible();
  await view.getByText("Map").click();
  await expect(zoom).toBeVisible();
  expect(await overflow()).toBe(0);
  await expectNoAxeViolations(page);
});

test("map challenge: solved by clicking the map", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  await signIn(page, team.members[0]!);
  const category = await seedCategory(request, staff, { name: unique("Geo "), contained_type: "jeopardy" });
  const target: [number, number] = [30, 45];
  await seedChallenge(request, staff, { category: category.id, name: "Where Am I", score: 100, challenge_type: "map", flag_type: "map", flag_metadata: { location: target, radius: 600 } });

  await page.goto(`/campaign/${category.slug}/where-am-i`);
  const map = page.getByTestId("flag-map").locator(".leaflet-container");
  await expect(map).toBeVisible();
  const box = (await map.boundingBox())!;
  // The map opens centred on 0,0 at zoom 2: a Web Mercator world 1024 px wide.
  const world = 256 * 2 ** 2;
  const project = ([lat, lon]: [number, number]) => {
    const sin = Math.sin((lat * Math.PI) / 180);
    return { x: ((lon + 180) / 360) * world, y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * world };
  };
  const centre = project([0, 0]);
  const wrong = project([-30, -60]);
  await map.click({ position: { x: box.width / 2 + (wrong.x - centre.x), y: box.height / 2 + (wrong.y - centre.y) } });
  await expect(page.getByTestId("map-selection")).toContainText(/Selected: -(29|30)\.\d+, -(59|60)\./);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByTestId("flag-incorrect")).toBeVisible();

  const right = project(target);
  await map.click({ position: { x: box.width / 2 + (right.x - centre.x), y: box.height / 2 + (right.y - centre.y) } });
  await expect(page.getByTestId("map-selection")).toContainText(/Selected: (29|30)\.\d+, (44|45)\./);
  await shoot(page, "map");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("heading", { name: "Flag correct!" })).toBeVisible();
});

test("code challenge: the editor starts from the default code in the challenge's language", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  await signIn(page, team.members[0]!);
  const category = await seedCategory(request, staff, { name: unique("Code "), contained_type: "jeopardy" });
  await seedChallenge(request, staff, {
    category: category.id,
    name: "Print It",
    score: 100,
    challenge_type: "code",
    challenge_metadata: { code_language: "python", code_default: "def solve():\n    pass" },
    // long_text keeps ASCII letters only, lower-cased.
    flag_type: "long_text",
    flag_metadata: { flag: "printflag" },
  });

  await page.goto(`/campaign/${category.slug}/print-it`);
  const editor = page.getByTestId("code-editor");
  await expect(editor.locator(".cm-content")).toContainText("def solve():");
  await expect(page.getByText(/python/i).first()).toBeVisible();
  await editor.locator(".cm-content").click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type('print("flag")');
  await expect(editor.locator(".cm-content")).toContainText('print("flag")');
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("heading", { name: "Flag correct!" })).toBeVisible();
});

test("unknown categories and challenges go to the 404 page; types without a renderer say so", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  await signIn(page, team.members[0]!);
  const category = await seedCategory(request, staff, { name: unique("Plugins "), contained_type: "mystery" });
  await page.goto(`/campaign/${category.id}`);
  await expect(page.getByText("No renderer is installed for the category type 'mystery'.")).toBeVisible();
  await expect(page.getByText("Did you forget to install a plugin?")).toBeVisible();
  await page.goto("/campaign/no-such-category");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.goto(`/campaign/${category.id}/no-such-challenge`);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("dark mode and a phone viewport", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const team = await seedTeam();
  await signIn(page, team.members[0]!);
  const category = await seedCategory(request, staff, { name: unique("Crypto "), contained_type: "jeopardy" });
  await seedChallenge(request, staff, {
    category: category.id,
    name: "Caesar Salad",
    score: 100,
    flag_metadata: { flag: "flag{x}" },
    description: "Decrypt `KHOOR`:\n\n```\nshift = int(open('/etc/caesar/shift.conf').read().strip()) % 26  # END\n```",
    tags: ["crypto"],
  });
  await seedChallenge(request, staff, { category: category.id, name: "Vigenere", score: 200, flag_metadata: { flag: "flag{v}" } });
  await seedChallenge(request, staff, { category: category.id, name: "Lattice", score: 500, flag_metadata: { flag: "flag{l}" } });
  await page.addInitScript(() => window.localStorage.setItem("flagship.color-scheme", "dark"));
  await page.goto(`/campaign/${category.slug}/caesar-salad`);
  await expect(page.getByRole("heading", { name: "Caesar Salad" })).toBeVisible();
  // The Submit button waiting for a flag is drawn disabled, and still as a button: its edge stands
  // out from the dark card.
  const submit = page.getByRole("button", { name: "Submit" });
  await expect(submit).toBeDisabled();
  const edge = await submit.evaluate((el) => ({ border: getComputedStyle(el).borderTopColor, card: getComputedStyle(el.closest(".mantine-Card-root")!).backgroundColor }));
  expect(contrastRatio(edge.border, edge.card)).toBeGreaterThanOrEqual(2.5);
  await shoot(page, "challenge-dark");
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone the card's padding gives way to the page's, and a long code line scrolls inside its
  // block, the block inside the card, its end reachable.
  await expect(page.getByRole("heading", { name: "Caesar Salad" })).toBeVisible();
  const card = page.getByTestId("challenge-card");
  expect(await card.evaluate((el) => parseFloat(getComputedStyle(el).paddingLeft))).toBeLessThanOrEqual(16);
  const code = card.locator("pre");
  const fit = await code.evaluate((pre) => {
    const box = pre.getBoundingClientRect();
    const frame = pre.closest(".mantine-Card-root")!.getBoundingClientRect();
    return { scrolls: pre.scrollWidth > pre.clientWidth, overflow: getComputedStyle(pre).overflowX, inside: box.left >= frame.left && box.right <= frame.right };
  });
  expect(fit).toEqual({ scrolls: true, overflow: "auto", inside: true });
  await code.evaluate((pre) => pre.scrollTo({ left: pre.scrollWidth }));
  await expect(code.getByText("# END", { exact: false })).toBeVisible();
  expect(await code.evaluate((pre) => {
    const range = document.createRange();
    const text = pre.querySelector("code")!.lastChild!;
    range.setStart(text, text.textContent!.trimEnd().length - 1);
    range.setEnd(text, text.textContent!.trimEnd().length);
    return range.getBoundingClientRect().right <= pre.getBoundingClientRect().right;
  })).toBe(true);
  await shoot(page, "challenge-phone-dark");
  await page.goto(`/campaign/${category.slug}`);
  await expect(page.getByRole("button", { name: "Caesar Salad" })).toBeVisible();
  await expectSwitchSeen(page.getByRole("switch", { name: "Show locked" }));
  // Each difficulty's pill has a dot of its own colour, in both schemes.
  const dots = () =>
    page.getByTestId("difficulty").evaluateAll((pills) => Object.fromEntries(pills.map((pill) => [pill.textContent, getComputedStyle(pill, "::before").backgroundColor])));
  await expect.poll(async () => Object.keys(await dots()).sort()).toEqual(["Easy", "Hard", "Medium"]);
  expect(new Set(Object.values(await dots())).size).toBe(3);
  await shoot(page, "jeopardy-phone-dark");
  await toggleDark(page);
  expect(new Set(Object.values(await dots())).size).toBe(3);
});

test("the lock page until the start, for players only", async ({ page }) => {
  const team = await seedTeam();
  const staff = await seedUser({ isStaff: true });
  await setConfig("start_time", Math.floor(Date.now() / 1000) + 2 * 86_400 + 3600);
  try {
    await signIn(page, team.members[0]!);
    await page.goto("/campaign");
    await expect(page.getByRole("heading", { name: "Site Locked!" })).toBeVisible();
    await expect(page.getByTestId("lock-page").getByRole("timer")).toHaveText(/^Unlock in 2 days, 0[01] hours, \d\d minutes, \d\d seconds$/);
    await shoot(page, "locked");
    const staffPage = await page.context().browser()!.newPage();
    await signIn(staffPage, staff);
    await staffPage.goto("/campaign");
    await expect(staffPage.getByRole("heading", { name: "Challenges" })).toBeVisible();
    // Staff get the category submenu in the sidebar.
    await expect(staffPage.getByRole("navigation", { name: "Main navigation" }).getByRole("button", { name: "Challenges: hide the categories" })).toHaveAttribute("aria-expanded", "true");
    await staffPage.close();
  } finally {
    await setConfig("start_time", null);
  }
});
