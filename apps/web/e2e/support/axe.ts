import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Waits (up to 5 s) for finite animations and transitions to end and for toasts to be fully opaque:
 * text caught mid-fade is measured at a contrast the settled page never shows.
 */
async function settled(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () => {
        const moving = document.getAnimations().some((a) => a.playState === "running" && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
        if (moving) return false;
        for (const toast of document.querySelectorAll(".mantine-Notification-root")) {
          for (let node: Element | null = toast; node; node = node.parentElement) if (Number(getComputedStyle(node).opacity) < 1) return false;
        }
        return true;
      },
      undefined,
      { timeout: 5000 },
    )
    .catch(() => undefined);
}

/**
 * Holds the toasts on screen while axe measures them, as a pointer resting on a toast does (a
 * toast closing itself mid-measure was measured half faded), then lets them go.
 */
async function holdingToasts<T>(page: Page, measure: () => Promise<T>): Promise<T> {
  const hover = (kind: "mouseenter" | "mouseleave") =>
    page.evaluate((type) => {
      for (const toast of document.querySelectorAll(".mantine-Notification-root")) toast.dispatchEvent(new MouseEvent(type));
    }, kind);
  await hover("mouseenter");
  try {
    await settled(page);
    return await measure();
  } finally {
    await hover("mouseleave");
  }
}

/** axe-core on the page as it is now: no violations, each named with the elements it found. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await holdingToasts(page, () => new AxeBuilder({ page }).analyze());
  const found = results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => `${n.target.join(" ")} [${n.any[0]?.message ?? n.failureSummary ?? ""}]`).join(", ")}`);
  expect(found).toEqual([]);
}

/** Desktop (1440x900) and phone (390x844) screenshots, full page, for a look before calling a screen done. */
export async function screenshots(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `test-results/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // The sidebar slides away on a phone; photograph once it has gone.
  await expect(page.locator("#app-navbar")).not.toBeInViewport();
  await page.screenshot({ path: `test-results/${name}-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** Switches the colour scheme with the header toggle. */
export async function toggleDark(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Toggle dark mode" }).click();
  // Away from the button, so its tooltip is gone before the next check.
  await page.mouse.move(0, 0);
  await expect(page.getByRole("tooltip")).toHaveCount(0);
}

/**
 * Runs axe-core on the page as it is now (or only inside `include`, e.g. an open dialog whose
 * overlay dims everything else) and expects no violations of the WCAG 2.1 A and AA rules.
 */
export async function expectNoAxeViolations(page: Page, include?: string): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  if (include) builder = builder.include(include);
  const results = await holdingToasts(page, () => builder.analyze());
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
