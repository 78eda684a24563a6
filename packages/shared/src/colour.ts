/**
 * Colour arithmetic for themes chosen by staff: WCAG contrast, and the nearest colour to a chosen
 * one that keeps text readable (4.5:1, WCAG AA for normal text). Colours are "#rrggbb".
 */

type Rgb = [number, number, number];

function rgb(hex: string): Rgb {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [parseInt(match[1]!, 16), parseInt(match[2]!, 16), parseInt(match[3]!, 16)];
}

function hex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
}

/** WCAG 2 relative luminance, 0 (black) to 1 (white). */
export function relativeLuminance(colour: string): number {
  const [r, g, b] = rgb(colour).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours, 1 to 21, the same whichever is the text. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `from` moved a fraction `t` (0 to 1) of the way to `to`, in sRGB like CSS color-mix(in srgb). */
export function mixColours(from: string, to: string, t: number): string {
  const a = rgb(from);
  const b = rgb(to);
  return hex([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]);
}

/**
 * The chosen colour, moved toward `toward` in steps of 5% only as far as needed for `against` to
 * reach `min` contrast with it. Unchanged when it already does. Used for a filled button's
 * background under its text, or a link's colour on the page.
 */
export function readableColour(colour: string, against: string, toward: string, min = 4.5): string {
  for (let step = 0; step <= 20; step += 1) {
    const candidate = mixColours(colour, toward, step / 20);
    if (contrastRatio(candidate, against) >= min) return candidate;
  }
  return toward;
}

/** The text colour for a fill: white when it reads at 4.5:1, else the darker of the two inks. */
export function textOn(fill: string, light = "#ffffff", dark = "#0b1220"): string {
  return contrastRatio(fill, light) >= 4.5 ? light : dark;
}

/** The contrast text needs on a colour, or a colour as text needs on its page (WCAG AA, normal text). */
export const READABLE_CONTRAST = 4.5;

/**
 * How an accent picked by staff reads as it is: the lower of white text on it (a filled button)
 * and it as text on the light page (a link), rounded to one decimal, or null when both reach
 * 4.5:1. The theme still shows a readable shade of a failing accent; this is for warning staff
 * that what they see is not quite what they picked.
 */
export function accentContrastShortfall(accent: string, page = "#ffffff"): number | null {
  if (!/^#[0-9a-f]{6}$/i.test(accent) || !/^#[0-9a-f]{6}$/i.test(page)) return null;
  const ratio = Math.min(contrastRatio(accent, "#ffffff"), contrastRatio(accent, page));
  return ratio < READABLE_CONTRAST ? Math.floor(ratio * 10) / 10 : null;
}
