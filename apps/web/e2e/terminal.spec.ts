import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe.ts";
import { seedCategory, seedChallenge, seedTeam } from "./support/challenges.ts";
import { seedUser, signIn, unique } from "./support/db.ts";

const SECRET = ["ArrowUp", "ArrowUp", "ArrowDown", "ArrowDown", "ArrowLeft", "ArrowRight", "ArrowLeft", "ArrowRight", "b", "a"];

test("a hidden key sequence opens a terminal that talks to the real API", async ({ page, request }) => {
  const staff = await seedUser({ isStaff: true });
  const category = await seedCategory(request, staff, { name: unique("Shell "), contained_type: "jeopardy" });
  const challenge = await seedChallenge(request, staff, { category: category.id, name: "Echo", score: 150, description: "Say **hello**.", flag_metadata: { flag: "flag{hello}" } });
  const team = await seedTeam();
  const player = team.members[0]!;
  await signIn(page, player);
  // The terminal's code loads the first time the sequence is typed, not with the pages.
  const terminalCode: string[] = [];
  page.on("request", (r) => {
    if (/\/assets\/FakeTerminal-[\w-]+\.js$/.test(r.url())) terminalCode.push(r.url());
  });
  await page.goto("/campaign");
  await expect(page.getByRole("heading", { level: 1, name: "Challenges" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(terminalCode).toEqual([]);
  for (const key of SECRET) await page.keyboard.press(key);

  const terminal = page.getByRole("dialog", { name: "Terminal" });
  await expect(terminal).toBeVisible();
  const output = terminal.getByTestId("terminal-output");
  const input = terminal.getByTestId("terminal-input");
  await expectNoAxeViolations(page, '[role="dialog"]');
  const run = async (command: string) => {
    await input.fill(command);
    await input.press("Enter");
    await expect(input).toBeEnabled();
  };
  await run("whoami");
  await expect(output).toContainText(player.username);
  await run(`ls ${category.slug}`);
  await expect(output).toContainText(`${challenge.id}\tEcho\t150 pts`);
  await run(`cat ${challenge.id}`);
  await expect(output).toContainText("Say hello.");
  await run(`submit ${challenge.id} flag{nope}`);
  await expect(output).toContainText("Incorrect flag");
  await run(`submit ${challenge.id} flag{hello}`);
  await expect(output).toContainText("Correct! +150 points");
  await run("rm -rf /");
  await expect(output).toContainText("rm: command not found");
  await input.fill("exit");
  await input.press("Enter");
  await expect(terminal).toBeHidden();
  expect(terminalCode).toHaveLength(1);

  // Typed again, the sequence opens it afresh.
  for (const key of SECRET) await page.keyboard.press(key);
  await expect(terminal).toBeVisible();
  await expect(output).not.toContainText("Correct!");
  await terminal.getByRole("button", { name: "Close" }).click();
  await expect(terminal).toBeHidden();
});
