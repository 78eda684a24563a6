import { type CSSVariablesResolver, createTheme, DEFAULT_THEME, darken, type MantineColorsTuple } from "@mantine/core";

/** The specs' palette: named colours for the light default and the dark preset. */
export const PALETTES = {
  light: {
    primary: "#1f6feb",
    secondary: "#6e7781",
    success: "#1a7f37",
    info: "#0969da",
    warning: "#9a6700",
    danger: "#cf222e",
    dark: "#1f2328",
    light: "#f6f8fa",
  },
  dark: {
    primary: "#4493f8",
    secondary: "#8b949e",
    success: "#3fb950",
    info: "#58a6ff",
    warning: "#d29922",
    danger: "#f85149",
    dark: "#0d1117",
    light: "#e6edf3",
  },
} as const;

export type PaletteName = keyof (typeof PALETTES)["light"];

const flagship: MantineColorsTuple = [
  "#e7f0ff",
  "#cedfff",
  "#9dbdfb",
  "#6899f7",
  "#3d7bf3",
  "#2367f1",
  "#1f6feb",
  "#0b4dd6",
  "#0044c0",
  "#003aaa",
];

export const theme = createTheme({
  primaryColor: "flagship",
  colors: { flagship },
  primaryShade: { light: 6, dark: 6 },
  defaultRadius: "md",
  fontFamily:
    "'Inter Variable', Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  fontFamilyMonospace: "'JetBrains Mono', ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  headings: { fontWeight: "700" },
  cursorType: "pointer",
  focusRing: "auto",
  components: {
    // Close buttons are named, so screen readers can say what they do. Plain objects rather than
    // Modal.extend(...): importing the components here would put them in every page's first load.
    Notification: { defaultProps: { closeButtonProps: { "aria-label": "Close" } } },
    Modal: { defaultProps: { closeButtonProps: { "aria-label": "Close" } } },
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
const CONTRAST = {
  light: {
    "--mantine-color-dimmed": "var(--mantine-color-gray-7)",
    "--mantine-color-anchor": "var(--mantine-color-flagship-8)",
    "--mantine-color-error": "var(--mantine-color-red-8)",
    "--mantine-color-placeholder": "var(--mantine-color-gray-7)",
    ...Object.fromEntries(LIGHT_VARIANT_COLORS.map((c) => [`--mantine-color-${c}-light-color`, lightVariantText(c)])),
  },
  dark: {
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
