import { expect, type Page, test } from "@playwright/test";
import { expectNoAxeViolations, screenshots } from "./support/axe.ts";
import { seedUser, setConfig, unique } from "./support/db.ts";

/** On the run's OpenID Provider's own sign-in page: any login name (the subject), any password. */
async function signInAtProvider(page: Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${process.env.E2E_OIDC_PORT}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

test("with login and registration by single sign-on, a player signs up and in through the provider", async ({ page }) => {
  await setConfig("login_provider", "oidc");
  await setConfig("registration_provider", "oidc");
  try {
    await page.goto("/login");
    const sso = page.getByRole("link", { name: "Sign in with Uni Login" });
    await expect(sso).toBeVisible();
    // The password form waits behind a disclosure (staff and accounts without a link).
    await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);
    await screenshots(page, "sso-login");
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Use a password instead" }).click();
    await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.goto("/register");
    await expect(page.getByRole("link", { name: "Sign up with Uni Login" })).toBeVisible();
    await screenshots(page, "sso-register");
    await expectNoAxeViolations(page);

    const login = unique("ada");
    await page.getByRole("link", { name: "Sign up with Uni Login" }).click();
    await signInAtProvider(page, login);
    // Back in the app, signed in to the account the first sign-in made (named after the login).
    await expect(page.getByRole("banner").getByText(login, { exact: true })).toBeVisible();
    await expect(page).not.toHaveURL(/\/login/);
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem("flagship.token"))).toMatch(/^[0-9a-f]{64}$/);
    await page.goto("/settings");
    const card = page.getByTestId("settings-sso");
    await expect(card.getByText(`Linked as ${login}@uni.example`)).toBeVisible();
    // Its only way in: the server refuses to unlink it.
    await expect(card.getByText(/has no password/)).toBeVisible();
    await card.getByRole("button", { name: `Unlink ${login}@uni.example` }).click();
    await expect(page.getByText("Set a password first: this login is your account's only way to sign in.")).toBeVisible();
    await expect(card.getByTestId("sso-identity")).toHaveCount(1);
  } finally {
    await setConfig("login_provider", "basic_auth");
    await setConfig("registration_provider", "basic_auth");
  }
});

test("a password account links its provider login in settings, signs in with it, and unlinks it", async ({ page }) => {
  const user = await seedUser();
  // Signed in once (not on every load, as signIn does), so that logging out sticks.
  await page.goto("/login");
  await page.evaluate((token) => window.localStorage.setItem("flagship.token", token), user.token);
  await page.goto("/settings");
  const card = page.getByTestId("settings-sso");
  await expect(card.getByText("No account is linked yet.")).toBeVisible();
  await card.getByRole("button", { name: "Link your Uni Login account" }).click();
  const login = unique("grace");
  await signInAtProvider(page, login);
  await expect(page.getByText("Your Uni Login account is linked.")).toBeVisible();
  await expect(card.getByText(`Linked as ${login}@uni.example`)).toBeVisible();
  await expect(page).toHaveURL(/\/settings$/);
  await card.scrollIntoViewIfNeeded();
  await expectNoAxeViolations(page, '[data-testid="settings-sso"]');
  await screenshots(page, "sso-settings");
  await expectNoAxeViolations(page);

  // Signed out, the login page offers the provider beside the password form; the provider still
  // knows the browser, so the round trip comes straight back signed in as the linked account.
  await page.getByRole("navigation").getByText("Log out", { exact: true }).click();
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem("flagship.token"))).toBeNull();
  await page.goto("/login");
  await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Sign in with Uni Login" }).click();
  await expect(page.getByRole("banner").getByText(user.username, { exact: true })).toBeVisible();
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto("/settings");
  await expect(page.getByTestId("settings-sso").getByText(`Linked as ${login}@uni.example`)).toBeVisible();

  await page.getByTestId("settings-sso").getByRole("button", { name: `Unlink ${login}@uni.example` }).click();
  await expect(page.getByText("Your Uni Login account is unlinked.")).toBeVisible();
  await expect(page.getByTestId("settings-sso").getByText("No account is linked yet.")).toBeVisible();
});

test("a provider login linked to no account is told to sign in with a password and link it", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("link", { name: "Sign in with Uni Login" }).click();
  await signInAtProvider(page, unique("stranger"));
  await expect(page).toHaveURL(/\/login\?oidc_error=sso_no_account$/);
  await expect(page.getByTestId("login-error")).toHaveText("No account is linked to that login. Sign in with your password and link it in Settings.");
  await expectNoAxeViolations(page);
});

test("a sign-in code made in another browser does not sign this one in (login CSRF)", async ({ page, browser }) => {
  await setConfig("registration_provider", "oidc");
  const attacker = await browser.newContext();
  try {
    // The attacker's own round trip, stopped before their browser redeems the code.
    const theirs = await attacker.newPage();
    await theirs.route((url) => url.pathname.startsWith("/trpc/") && url.pathname.includes("auth.oidcLogin"), (route) => route.abort());
    await theirs.goto("/login");
    await theirs.getByRole("link", { name: "Sign in with Uni Login" }).click();
    const back = theirs.waitForRequest((request) => new URL(request.url()).pathname === "/login" && new URL(request.url()).searchParams.has("oidc"));
    await signInAtProvider(theirs, unique("mallory"));
    const url = new URL((await back).url());
    const landing = url.pathname + url.search;
    expect(landing).toMatch(/^\/login\?oidc=[A-Za-z0-9_-]{43}$/);

    // The victim is sent there: the code is refused and nobody is signed in.
    await page.goto(landing);
    await expect(page.getByTestId("login-error")).toHaveText("Single sign-on did not complete. Please try again.");
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => window.localStorage.getItem("flagship.token"))).toBeNull();
  } finally {
    await attacker.close();
    await setConfig("registration_provider", "basic_auth");
  }
});
