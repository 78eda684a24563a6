import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** Runs axe-core on the page as it is now and expects no violations (WCAG 2.1 A and AA rules). */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(summary).toEqual([]);
}

/** Desktop (1440x900) and phone (390x844) screenshots of the page, for people to look at. */
export async function shootBoth(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `test-results/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `test-results/${name}-phone.png`, fullPage: true });
  await expectNoAxeViolations(page);
  if (size) await page.setViewportSize(size);
}
