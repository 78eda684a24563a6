import { type CSSVariablesResolver, createTheme, DEFAULT_THEME, darken, type MantineColorsTuple } from "@mantine/core";

/**
 * Flagship's palette: a deep ink navy (the logo mark's ground) with the mark's signal teal as the
 * accent, for the light default and the dark preset. The page colours are the schemes' bodies.
 */
export const PALETTES = {
  light: {
    primary: "#0f766e",
    secondary: "#52607a",
    success: "#15803d",
    info: "#0369a1",
    warning: "#a15c07",
    danger: "#c81e3a",
    dark: "#0b1220",
    light: "#f3f6fa",
  },
  dark: {
    primary: "#2dd4bf",
    secondary: "#94a3b8",
    success: "#4ade80",
    info: "#38bdf8",
    warning: "#fbbf24",
    danger: "#fb7185",
    dark: "#101827",
    light: "#e2e8f0",
  },
} as const;

export type PaletteName = keyof (typeof PALETTES)["light"];

/** The signal teal, from a pale wash to near-ink; shade 4 is the logo's accent, shade 7 the filled one (white text at 5.5:1). */
const flagship: MantineColorsTuple = [
  "#e6fcf7",
  "#c2f5ea",
  "#8eebd8",
  "#5cdcc6",
  "#2dd4bf",
  "#14b8a6",
  "#0d9488",
  "#0f766e",
  "#115e59",
  "#123f3c",
];

/** The dark scheme's cards and inputs (ink 6), lighter than its page: text on them needs its own contrast. */
export const DARK_CARD = "#1a2335";

/** Ink navy for the dark scheme's surfaces (Mantine's neutral greys otherwise): 7 the page, 6 cards and inputs, 9 the logo's ground. */
const ink: MantineColorsTuple = [
  "#d7dee9",
  "#a9b4c6",
  "#7d8aa1",
  "#5b6880",
  "#37445b",
  "#2a3548",
  DARK_CARD,
  PALETTES.dark.dark,
  "#0b1220",
  "#070c16",
];

export const theme = createTheme({
  primaryColor: "flagship",
  colors: { flagship, dark: ink },
  primaryShade: { light: 7, dark: 7 },
  // Text is the logo's ink rather than pure black.
  black: PALETTES.light.dark,
  defaultRadius: "md",
  fontFamily:
    "'Inter Variable', Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  fontFamilyMonospace: "'JetBrains Mono', ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  headings: { fontWeight: "700" },
  cursorType: "pointer",
  focusRing: "auto",
  // Dialogs, drawers, toasts and other transitions appear at once for visitors who ask for less motion.
  respectReducedMotion: true,
  components: {
    // Close buttons are named, so screen readers can say what they do. A plain object rather than
    // Notification.extend(...): importing the component here would put it in every page's first load.
    Notification: { defaultProps: { closeButtonProps: { "aria-label": "Close" } } },
  },
});

/** The colours whose light variants (badges, light and subtle buttons) the app uses. */
const LIGHT_VARIANT_COLORS = ["flagship", "blue", "green", "red", "orange", "yellow", "grape", "gray", "teal", "cyan", "violet", "pink", "indigo", "lime"];

/** The darkest shade of a colour, darkened further: Mantine's own light-variant text is under 4.5:1. */
function lightVariantText(color: string): string {
  const shades = color === "flagship" ? flagship : DEFAULT_THEME.colors[color];
  return darken(shades![9], 0.3);
}

/**
 * Text contrast of at least 4.5:1 (WCAG AA): dimmed text, links and the text of light variants
 * are a shade darker in the light scheme and lighter in the dark one than Mantine's defaults.
 */
/**
 * Filled red buttons (delete, remove, leave: most in dialogs) in red 9: Mantine's shade 7 puts
 * their white text at 3.8:1, shade 9 at 5.4:1.
 */
const FILLED_RED = {
  "--mantine-color-red-filled": "var(--mantine-color-red-9)",
  "--mantine-color-red-filled-hover": darken(DEFAULT_THEME.colors.red[9]!, 0.1),
};

const CONTRAST = {
  light: {
    ...FILLED_RED,
    "--mantine-color-body": PALETTES.light.light,
    "--mantine-color-dimmed": "var(--mantine-color-gray-7)",
    "--mantine-color-anchor": "var(--mantine-color-flagship-8)",
    "--mantine-color-error": "var(--mantine-color-red-8)",
    "--mantine-color-placeholder": "var(--mantine-color-gray-7)",
    ...Object.fromEntries(LIGHT_VARIANT_COLORS.map((c) => [`--mantine-color-${c}-light-color`, lightVariantText(c)])),
  },
  dark: {
    ...FILLED_RED,
    "--mantine-color-dimmed": "var(--mantine-color-dark-1)",
    "--mantine-color-anchor": "var(--mantine-color-flagship-2)",
    "--mantine-color-placeholder": "var(--mantine-color-dark-1)",
    ...Object.fromEntries(LIGHT_VARIANT_COLORS.map((c) => [`--mantine-color-${c}-light-color`, `var(--mantine-color-${c}-2)`])),
  },
};

const toVariables = (palette: Record<PaletteName, string>) =>
  Object.fromEntries(Object.entries(palette).map(([name, value]) => [`--fs-${name}`, value]));

/** Exposes the palette as CSS variables (--fs-primary, ...), switched with the colour scheme. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { ...toVariables(PALETTES.light), ...CONTRAST.light },
  dark: { ...toVariables(PALETTES.dark), ...CONTRAST.dark },
});
