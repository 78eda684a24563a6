import { type CSSVariablesResolver, createTheme, type MantineColorsTuple, Modal, Notification } from "@mantine/core";

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
  primaryShade: { light: 6, dark: 4 },
  defaultRadius: "md",
  fontFamily:
    "Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  fontFamilyMonospace: "'JetBrains Mono', ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  headings: { fontWeight: "700" },
  cursorType: "pointer",
  focusRing: "auto",
  // Icon-only close buttons need a name for screen readers.
  components: {
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { "aria-label": "Close notification" } } }),
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { "aria-label": "Close" } } }),
  },
});

const toVariables = (palette: Record<PaletteName, string>) =>
  Object.fromEntries(Object.entries(palette).map(([name, value]) => [`--fs-${name}`, value]));

/** Exposes the palette as CSS variables (--fs-primary, ...), switched with the colour scheme. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  // Mantine's default dimmed grey and error red are under 4.5:1 on white; these meet WCAG AA.
  light: { ...toVariables(PALETTES.light), "--mantine-color-dimmed": "#5c636a", "--mantine-color-error": "#c92a2a", "--mantine-color-placeholder": "#6b7178" },
  dark: toVariables(PALETTES.dark),
});
