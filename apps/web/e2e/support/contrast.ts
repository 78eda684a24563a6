import type { Locator } from "@playwright/test";

/** The channels of a colour as computed styles give it ("rgb(r, g, b)", "rgba(r, g, b, a)"). */
function channels(colour: string): number[] {
  const match = /rgba?\(([^)]+)\)/.exec(colour);
  if (!match) throw new Error(`not an rgb colour: ${colour}`);
  return match[1]!.split(/[\s,/]+/).filter(Boolean).map(Number);
}

/** WCAG 2 contrast ratio of two opaque colours. */
export function contrastRatio(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r, g, b] = channels(colour).map((c) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * A switch as drawn, from its input: the track's edge (its inset ring, else its fill), the track's
 * fill, the thumb's fill and the first opaque background behind the switch.
 */
export function switchColours(input: Locator): Promise<{ edge: string; track: string; thumb: string; behind: string }> {
  return input.evaluate((el) => {
    const track = el.nextElementSibling!;
    const thumb = track.querySelector(".mantine-Switch-thumb")!;
    let behind = "rgb(255, 255, 255)";
    for (let node = track.parentElement; node; node = node.parentElement) {
      const bg = getComputedStyle(node).backgroundColor;
      if (bg.startsWith("rgb(")) {
        behind = bg;
        break;
      }
    }
    const fill = getComputedStyle(track).backgroundColor;
    const ring = /^(rgb\([^)]+\)) .*inset/.exec(getComputedStyle(track).boxShadow)?.[1];
    return { edge: ring ?? fill, track: fill, thumb: getComputedStyle(thumb).backgroundColor, behind };
  });
}
