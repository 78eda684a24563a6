import { expect, type Locator } from "@playwright/test";

/**
 * Every text a chart draws lies whole inside the chart's box: an axis name, a label beside a pie or
 * a legend entry that runs past the edge is cut off there (the chart's SVG clips it).
 */
export async function expectChartTextInside(chart: Locator): Promise<void> {
  await expect
    .poll(() =>
      chart.evaluate((box) => {
        const edge = box.getBoundingClientRect();
        const texts = [...box.querySelectorAll("svg text")].filter((text) => text.getBoundingClientRect().width > 0);
        // Not drawn yet (the chart loads, or is being redrawn in the other scheme).
        if (texts.length === 0) return null;
        return texts
          .filter((text) => {
            const r = text.getBoundingClientRect();
            return r.left < edge.left - 1 || r.right > edge.right + 1 || r.top < edge.top - 1 || r.bottom > edge.bottom + 1;
          })
          .map((text) => text.textContent);
      }),
    )
    .toEqual([]);
}
