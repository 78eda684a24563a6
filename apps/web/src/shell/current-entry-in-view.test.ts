import { describe, expect, it } from "vitest";
import { nearestScrollTop } from "./current-entry-in-view.ts";

describe("nearestScrollTop", () => {
  const panel = { top: 100, bottom: 400 };

  it("stays put when the entry is whole in view", () => {
    expect(nearestScrollTop(panel, { top: 100, bottom: 136 }, 50)).toBe(50);
    expect(nearestScrollTop(panel, { top: 364, bottom: 400 }, 50)).toBe(50);
  });

  it("brings an entry below the fold up to the bottom edge, one above down to the top edge", () => {
    expect(nearestScrollTop(panel, { top: 800, bottom: 836 }, 0)).toBe(436);
    expect(nearestScrollTop(panel, { top: 390, bottom: 426 }, 10)).toBe(36);
    expect(nearestScrollTop(panel, { top: 40, bottom: 76 }, 200)).toBe(140);
  });

  it("scrolls whole pixels, never leaving a fraction of the entry past the edge", () => {
    expect(nearestScrollTop(panel, { top: 380.4, bottom: 400.4 }, 0)).toBe(1);
    expect(nearestScrollTop(panel, { top: 99.6, bottom: 119.6 }, 10)).toBe(9);
  });

  it("shows the top of an entry taller than the panel", () => {
    expect(nearestScrollTop(panel, { top: 500, bottom: 900 }, 0)).toBe(400);
  });
});
