import { expect, type Page, test } from "@playwright/test";
import { generate } from "otplib";
import { E2E_PASSWORD, seedUser, signIn, unique } from "./support/db.ts";
import { waitForMail } from "./support/mail.ts";

const NEW_PASSWORD = "Lantern-Walrus-Copper-88";

function linkIn(text: string, path: string): string {
  const match = new RegExp(`https?://[^\\s]+/${path}\\?id=\\d+&secret=[0-9a-f]+`).exec(text);
  if (!match) throw new Error(`no ${path} link in mail: ${text}`);
  return match[0];
}

async function expectLoggedIn(page: Page) {
  await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Log out" })).toBeVisible();
}

test("register, verify the email from the received mail and land on /welcome", async ({ page }) => {
  // Someone exists already, so this account is a player who must verify their address.
  await seedUser();
  const username = unique("newbie");
  await page.goto("/register");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("No username provided")).toBeVisible();
  // No terms or privacy page is written: there is nothing to accept (event-pages.spec.ts writes one).
  await expect(page.getByRole("checkbox")).toHaveCount(0);

  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Email").fill(`${username}@example.test`);
  await page.getByLabel("Password", { exact: true }).fill("password");
  await expect(page.getByTestId("password-strength")).toHaveAttribute("data-score", "0");
  await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
  await expect(page.getByTestId("password-strength")).toHaveAttribute("data-score", /[34]/);
  await page.getByLabel("Repeat password").fill(NEW_PASSWORD);
  await page.screenshot({ path: "test-results/auth-register.png", fullPage: true });
  await page.getByRole("button", { name: "Register" }).click();

  await expect(page).toHaveURL(/\/register\/email$/);
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  const mail = await waitForMail((m) => m.to.includes(`${username}@example.test`));
  await page.goto(linkIn(mail.text, "verify"));
  await page.getByRole("button", { name: "Verify Email" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByRole("heading", { name: `Welcome, ${username}!` })).toBeVisible();
  await expectLoggedIn(page);
});

test("a bad verification link shows the failure", async ({ page }) => {
  await page.goto("/verify?id=999999&secret=abc");
  await page.getByRole("button", { name: "Verify Email" }).click();
  await expect(page.getByText("Account verification failed!")).toBeVisible();
  await expect(page.getByTestId("verify-failed")).toContainText("This link is invalid or has expired.");
});

test("enrol in 2FA with the wizard, then log in with a computed code", async ({ page }) => {
  const user = await seedUser();
  await signIn(page, user);
  await page.goto("/settings");
  await page.getByRole("link", { name: "Enable 2FA" }).click();
  await expect(page).toHaveURL(/\/settings\/2fa$/);
  await page.getByRole("button", { name: "Get started" }).click();
  const secretText = await page.getByTestId("totp-secret").innerText();
  expect(secretText).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
  const secret = secretText.replace(/\s+/g, "");
  await expect(page.getByRole("img", { name: "QR code" })).toBeVisible();
  await page.screenshot({ path: "test-results/auth-2fa-scan.png", fullPage: true });
  await page.getByLabel("6-digit code").fill(await generate({ secret }));
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("heading", { name: "Two-factor authentication is on" })).toBeVisible();
  await expect(page.getByTestId("backup-codes").locator("p, div").filter({ hasText: /^[a-z2-9]{8}$/ })).toHaveCount(10);

  await page.goto("/logout");
  // Logged out once the server has ended the session and this browser forgot the token.
  await expect(page.getByText("You have been logged out.")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Log in" })).toBeVisible();
  await page.goto("/login");
  await page.getByLabel("Username or email").fill(user.username);
  await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  const prompt = page.getByRole("dialog", { name: "Two-factor authentication" });
  await expect(prompt).toBeVisible();
  await prompt.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByText("Login cancelled.")).toBeVisible();

  await page.getByRole("button", { name: "Log in" }).click();
  // The step used to enrol cannot be replayed: the next one is within the allowed drift.
  await prompt.getByLabel("Code").fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  await prompt.getByRole("button", { name: "Verify" }).click();
  await expectLoggedIn(page);
});

test("reset a forgotten password through the mailed link", async ({ page }) => {
  const user = await seedUser();
  await page.goto("/login");
  await page.getByRole("button", { name: "Forgot password?" }).click();
  const dialog = page.getByRole("dialog", { name: "Reset your password" });
  await dialog.getByLabel("Email").fill(user.email);
  await dialog.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByTestId("reset-sent")).toBeVisible();

  const mail = await waitForMail((m) => m.to.includes(user.email) && m.subject.includes("Reset"));
  await page.goto(linkIn(mail.text, "password_reset"));
  await page.getByLabel("New password").fill(NEW_PASSWORD);
  await page.getByLabel("Repeat password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expectLoggedIn(page);

  await page.goto("/logout");
  // Logged out once the server has ended the session and this browser forgot the token.
  await expect(page.getByText("You have been logged out.")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Log in" })).toBeVisible();
  await page.goto("/login");
  await page.getByLabel("Username or email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByTestId("login-error")).toHaveText("Incorrect username or password.");
  await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expectLoggedIn(page);
});

test("too many reset requests show the rate-limit message", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Forgot password?" }).click();
  const dialog = page.getByRole("dialog", { name: "Reset your password" });
  const limited = dialog.getByText("You are being rate-limited.");
  // Reset requests are limited to 3 an hour per IP in the e2e server: keep asking until refused.
  for (let attempt = 0; attempt < 5 && !(await limited.isVisible()); attempt++) {
    await dialog.getByLabel("Email").fill(`nobody-${attempt}@example.test`);
    await dialog.getByRole("button", { name: "Send reset link" }).click();
    await expect(dialog.getByText(/No account with that email address was found\.|You are being rate-limited\./)).toBeVisible();
  }
  await expect(limited).toBeVisible();
});

test("settings: profile with counters and limits, notifications, username", async ({ page }) => {
  const user = await seedUser();
  await signIn(page, user);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/settings");
  const profile = page.getByTestId("settings-profile");
  // Side by side, the two Discord fields line up; the ID's hint sits under it and describes it.
  await expect(profile.getByLabel("Discord ID")).toHaveAccessibleDescription("Digits only");
  const [name, id] = [(await profile.getByLabel("Discord name").boundingBox())!, (await profile.getByLabel("Discord ID").boundingBox())!];
  expect(id.x).toBeGreaterThan(name.x + name.width);
  expect(id.y).toBe(name.y);
  await profile.getByLabel("Discord ID").fill("12ab34");
  await expect(profile.getByLabel("Discord ID")).toHaveValue("1234");
  await profile.getByLabel("Twitter").fill("t".repeat(50));
  await expect(profile.getByLabel("Twitter")).toHaveValue("t".repeat(36));
  await expect(profile.getByText("36/36")).toBeVisible();
  await profile.getByLabel("Bio").fill("I like crypto.");
  await profile.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved", { exact: true })).toBeVisible();

  const notificationsCard = page.getByTestId("settings-notifications");
  const hints = notificationsCard.getByRole("switch", { name: "Hints used by my team" });
  await expect(hints).toBeChecked();
  await hints.click({ force: true });
  await expect(hints).not.toBeChecked();

  const usernameCard = page.getByTestId("settings-username");
  await usernameCard.getByRole("button", { name: "Save" }).click();
  await expect(usernameCard.getByText("Username has not changed")).toBeVisible();
  await page.screenshot({ path: "test-results/auth-settings.png", fullPage: true });

  await page.reload();
  await expect(page.getByTestId("settings-profile").getByLabel("Bio")).toHaveValue("I like crypto.");
  await expect(page.getByTestId("settings-notifications").getByRole("switch", { name: "Hints used by my team" })).not.toBeChecked();
});

test("staff impersonate a player from their profile, see a banner, and ending it restores the staff session", async ({ page }) => {
  const staff = await seedUser({ isStaff: true });
  const player = await seedUser();
  await signIn(page, staff);
  await page.goto(`/profile/${player.id}`);
  await expect(page.getByRole("heading", { name: player.username })).toBeVisible();
  await page.getByRole("button", { name: "Impersonate" }).click();
  await page.getByTestId("confirm-impersonate").click();
  await expect(page.getByTestId("impersonation-banner")).toContainText(`You are viewing the site as ${player.username}.`);
  // In-app navigation: a reload would re-run signIn's script and put the staff token back.
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByTestId("settings-username").getByLabel("Username")).toHaveValue(player.username);
  await page.getByRole("button", { name: "End impersonation" }).click();
  await expect(page.getByText("Impersonation ended - welcome back.")).toBeVisible();
  await expect(page.getByTestId("impersonation-banner")).toHaveCount(0);
  await expect(page.getByTestId("settings-username").getByLabel("Username")).toHaveValue(staff.username);
});

test("/uri follows a path of this site only", async ({ page }) => {
  await page.goto("/uri?:/leaderboard");
  await expect(page).toHaveURL(/\/leaderboard$/);
  await page.goto("/uri?://evil.example");
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
});
