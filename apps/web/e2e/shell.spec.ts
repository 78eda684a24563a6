import { expect, test } from "@playwright/test";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { expectNoAxeViolations } from "./support/axe.ts";
import { seedUser, signIn, unique } from "./support/db.ts";

test("the shell: sidebar, footer, theme and the 404 page", async ({ page }) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  await expect(nav.getByRole("link", { name: "Home" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Users" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Teams" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Leaderboard" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Log in" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Register" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Flagship CTF" })).toBeVisible();
  await expect(page.getByTestId("footer-text")).toHaveText("Flagship end-to-end tests");

  // The toggle draws the scheme it switches to, a moon then a sun, as an icon (no text glyph).
  const toggle = page.getByRole("button", { name: "Toggle dark mode" });
  await expect(toggle).toHaveText("");
  await expect(toggle.locator('svg[aria-hidden="true"]')).toHaveAttribute("data-icon", "moon");
  await toggle.click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  await expect(toggle).toHaveText("");
  await expect(toggle.locator('svg[aria-hidden="true"]')).toHaveAttribute("data-icon", "sun");
  await page.screenshot({ path: "test-results/shell-dark.png", fullPage: true });
  await toggle.click();

  await page.goto("/this/page/does-not-exist");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Take me home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: "Flagship CTF" })).toBeVisible();
});

test("trailing slashes are removed by redirect", async ({ page }) => {
  await page.goto("/no-such-page/?x=1");
  await expect(page).toHaveURL(/\/no-such-page\?x=1$/);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  for (const path of ["/users/", "/leaderboard/", "/debug/"]) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path.slice(0, -1)}$`));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
});

test("admin pages send non-staff home", async ({ page }) => {
  const player = await seedUser();
  await signIn(page, player);
  await page.goto("/admin/config");
  await expect(page).toHaveURL(/\/(campaign)?$/);
});

test("the sidebar collapses behind a menu button on a phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  await expect(nav.getByRole("link", { name: "Users" })).not.toBeInViewport();
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(nav.getByRole("link", { name: "Users" })).toBeInViewport();
  await page.screenshot({ path: "test-results/shell-phone.png" });
});

test("the player's name and team points: in the header on a desktop, atop the sliding sidebar on a phone", async ({ page }) => {
  const player = (await seedTeam()).members[0]!;
  await signIn(page, player);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/campaign");
  const header = page.getByTestId("header-account");
  await expect(header).toContainText(player.username);
  await expect(page.getByTestId("header-points")).toHaveText(/^\d+ points$/);
  await expect(page.getByTestId("header-points")).toHaveAttribute("title", "Your team's points");

  await page.setViewportSize({ width: 390, height: 844 });
  // No room in a phone's header: the name and points come with the menu.
  await expect(header).toBeHidden();
  await page.getByRole("button", { name: "Menu" }).click();
  const account = page.getByTestId("sidebar-account");
  await expect(account).toBeInViewport();
  await expect(account).toContainText(player.username);
  await expect(page.getByTestId("sidebar-points")).toHaveText(/^\d+ points$/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  // On a desktop the header has them; the sidebar does not repeat them.
  await expect(account).toBeHidden();
});

test("the diagnostic pages", async ({ page }) => {
  await page.goto("/debug");
  await expect(page.getByRole("heading", { name: "Diagnostics" })).toBeVisible();
  await page.getByText("Websocket").click();
  await expect(page).toHaveURL(/\/debug\/ws$/);
  await expect(page.getByText("Connected", { exact: true })).toBeVisible({ timeout: 15_000 });
  await page.goto("/debug/theme");
  await expect(page.getByText("primary").first()).toBeVisible();
  await page.goto("/debug/experiments");
  await expect(page.getByText("No experiments are set.")).toBeVisible();
  await page.goto("/debug/loading");
  await expect(page.getByTestId("loading-warning")).toBeVisible({ timeout: 15_000 });
});

test("the sidebar runs the full height, each entry with an icon, one entry current", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const player = await seedUser();
  await signIn(page, player);
  await page.goto("/leaderboard");
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  await expect(nav.getByRole("link", { name: "Leaderboard" })).toBeVisible();
  // The panel starts at the top of the window (beside the header, not under it) and reaches the bottom.
  const panel = await page.locator("#app-navbar").boundingBox();
  expect(panel).toMatchObject({ y: 0, height: 900 });
  // Every entry carries a decorative icon; its name is its label alone.
  for (const link of await nav.getByRole("link").all()) await expect(link.locator("svg[aria-hidden]")).toHaveCount(1);
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
  await expect(nav.locator('[aria-current="page"]')).toHaveAccessibleName("Leaderboard");
  await expect(nav.locator(".mantine-NavLink-root[data-active]")).toHaveCount(1);
  await nav.getByRole("link", { name: "Settings" }).click();
  await expect(nav.locator('[aria-current="page"]')).toHaveAccessibleName("Settings");
  await expect(nav.locator(".mantine-NavLink-root[data-active]")).toHaveCount(1);
});

test("exactly one sidebar entry is marked on every page of its section", async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const staff = await seedUser({ isStaff: true });
  // Two categories, so Challenges is a submenu of categories.
  const web = await seedCategory(request, staff, { name: unique("Web "), contained_type: "jeopardy" });
  await seedCategory(request, staff, { name: unique("Crypto "), contained_type: "jeopardy" });
  const challenge = await seedChallenge(request, staff, { category: web.id, name: "Cookie Jar", score: 100, flag_metadata: { flag: "flag{jar}" } });
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  const marked = nav.locator(".mantine-NavLink-root[data-active]");
  const expectMarked = async (name: string) => {
    await expect(marked).toHaveCount(1);
    await expect(marked).toHaveAccessibleName(name);
    await expect(marked).toBeVisible();
    // And it is the one entry drawn filled (a submenu's current page is marked another way).
    await page.mouse.move(900, 700);
    await expect
      .poll(() => nav.locator(".mantine-NavLink-root").evaluateAll((links) => links.filter((link) => getComputedStyle(link).backgroundColor !== "rgba(0, 0, 0, 0)").map((link) => link.textContent)))
      .toEqual([name]);
  };

  await page.goto("/");
  await expectMarked("Home");

  const player = (await seedTeam()).members[0]!;
  await signIn(page, player);
  // The signed-in home is the event's home page, as for visitors, and Home stays marked.
  await page.goto("/");
  await expect(page.getByTestId("home-content")).toBeVisible();
  await expectMarked("Home");
  await page.goto("/campaign");
  await expectMarked("Challenges");
  const challenges = nav.getByRole("button", { name: "Challenges" });
  await expect(challenges).toHaveAttribute("aria-expanded", "true");
  await expect(nav.getByRole("link", { name: "Challenges", exact: true })).toHaveAttribute("aria-current", "page");
  await page.goto(`/campaign/${web.slug}`);
  await expectMarked("Challenges");
  await expect(nav.getByRole("link", { name: web.name })).toHaveAttribute("aria-current", "page");
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
  await page.goto(`/campaign/${web.slug}/${challenge.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: "Cookie Jar" })).toBeVisible();
  await expectMarked("Challenges");
  await expect(nav.getByRole("link", { name: web.name })).toHaveAttribute("aria-current", "true");
  // Arriving from elsewhere in the app opens the submenu too, after the player closed it.
  await challenges.click();
  await expect(challenges).toHaveAttribute("aria-expanded", "false");
  await nav.getByRole("link", { name: "Leaderboard" }).click();
  await expectMarked("Leaderboard");
  await page.goBack();
  await expectMarked("Challenges");
  await expect(challenges).toHaveAttribute("aria-expanded", "true");
  // The entry's label is a link to the categories (its chevron the submenu's toggle).
  await nav.getByRole("link", { name: "Leaderboard" }).click();
  await nav.getByRole("link", { name: "Challenges", exact: true }).click();
  await expect(page).toHaveURL(/\/campaign$/);
  await expectMarked("Challenges");
  await expect(challenges).toHaveAttribute("aria-expanded", "true");

  const loner = await seedUser();
  await signIn(page, loner);
  for (const path of ["/team/create", "/team/join"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectMarked("Team");
  }
});

test("a staff page far down the console's list, opened directly, has its entry scrolled into the sidebar's view", async ({ page }) => {
  const staff = await seedUser({ isStaff: true });
  await signIn(page, staff);
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  const outbox = nav.getByRole("link", { name: "Outbox", exact: true });
  // A short window: the console's last entry lies well below the panel's fold.
  await page.setViewportSize({ width: 1280, height: 480 });
  await page.goto("/admin/outbox");
  await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
  await expect(outbox).toHaveAttribute("aria-current", "page");
  await expect(outbox).toBeInViewport({ ratio: 1 });
  // The page itself stays at its top.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  // On a phone, with motion reduced, the panel slides in with the entry already in view.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.setViewportSize({ width: 390, height: 600 });
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(outbox).toBeInViewport({ ratio: 1 });
});

test("the logo: the event's logo and name on the login and sign-up cards, the mark as the favicon and in the header", async ({ page, request }) => {
  await page.goto("/login");
  // The card is the event's: its logo (served at /logo) beside its name.
  const event = page.getByTestId("auth-card-event");
  await expect(event.locator('img[src="/logo"]')).toBeVisible();
  await expect(event).toHaveText("Flagship CTF");
  await page.setViewportSize({ width: 1440, height: 900 });
  await expectNoAxeViolations(page);
  await page.screenshot({ path: "test-results/login-card-desktop.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(page);
  await page.screenshot({ path: "test-results/login-card-phone.png" });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto("/register");
  await expect(page.getByTestId("auth-card-event").locator('img[src="/logo"]')).toBeVisible();
  await page.goto("/login");
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/favicon.svg");
  const favicon = await (await request.get("/favicon.svg")).text();
  // The favicon and the header draw the same mark as the logo component (its teal pennant).
  expect(favicon).toContain("#2dd4bf");
  // The header draws the event's logo, which is the same mark while staff have uploaded none.
  await expect(page.getByRole("banner").locator('img[src="/logo"]')).toBeVisible();
  expect(await (await request.get("/logo")).text()).toBe(favicon);
});

test("a challenge's dialog dims the whole page on a phone, footer included; a long staff page has its sidebar's colour down to the bottom", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Harbour "), contained_type: "campaign" });
  await seedChallenge(request, staff, { category: category.id, name: "Lighthouse", score: 100, flag_metadata: { flag: "flag{beam}" } });
  const player = (await seedTeam()).members[0]!;
  await signIn(page, player);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/campaign/${category.slug}`);
  await page.getByRole("button", { name: /Lighthouse/ }).first().click();
  await expect(page.getByRole("dialog").getByRole("heading", { name: "Lighthouse" })).toBeVisible();
  const covered = await page.evaluate(() => {
    const overlay = document.querySelector("[data-testid=dialog-overlay]")!.getBoundingClientRect();
    const footer = document.querySelector("footer")!.getBoundingClientRect();
    return { overlayBottom: overlay.bottom, footerBottom: footer.bottom, page: document.documentElement.scrollHeight };
  });
  expect(covered.footerBottom).toBeGreaterThan(844);
  expect(covered.overlayBottom).toBeGreaterThanOrEqual(covered.page);
  await page.screenshot({ path: "test-results/shell-dialog-phone.png", fullPage: true });
  await page.keyboard.press("Escape");

  await signIn(page, staff);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/admin/config");
  await expect(page.getByRole("heading", { level: 1, name: "Configuration" })).toBeVisible();
  const sidebar = await page.evaluate(() => {
    const stripe = getComputedStyle(document.querySelector(".app-shell")!, "::before");
    return { stripe: stripe.height, colour: stripe.backgroundColor, navbar: getComputedStyle(document.getElementById("app-navbar")!).backgroundColor, page: document.documentElement.scrollHeight };
  });
  expect(sidebar.page).toBeGreaterThan(900 * 2);
  // scrollHeight is rounded; the stripe is the shell's exact height.
  expect(parseFloat(sidebar.stripe)).toBeGreaterThan(sidebar.page - 1);
  expect(sidebar.colour).toBe(sidebar.navbar);
  await page.screenshot({ path: "test-results/shell-long-staff-page.png", fullPage: true });
});
