import { mixColours, readableColour, type Theme } from "@flagship/shared";
import { useEffect } from "react";
import { useAppData } from "../../shell/useAppData.ts";
import { DARK_CARD } from "../../theme.ts";
import { useThemePreview } from "./themeState.ts";

/**
 * CSS for a theme: the palette variables, Mantine's primary colour, and each scheme's page colours.
 * Staff may pick any colours, so what carries text is adjusted to read at 4.5:1 (WCAG AA): a filled
 * button's background is darkened under its white text, links and light-variant text are moved
 * toward the scheme's text colour on its page, the error colour likewise.
 */
export function themeCss(theme: Theme): string {
  const palette = ["primary", "secondary", "success", "info", "warning", "danger", "dark", "light"] as const;
  const filled = readableColour(theme.primary, "#ffffff", "#000000");
  // The primary sidebar's active entry sits on a white wash over this fill, so it needs more room.
  const sidebarFill = readableColour(theme.primary, "#ffffff", "#000000", 7);
  // On the dark sidebar the active entry's text sits on the primary's wash over the dark colour.
  const sidebarAccent = readableColour(theme.primary, mixColours(theme.dark, theme.primary, 0.2), theme.light);
  const vars = [...palette.map((name) => `--fs-${name}: ${theme[name]};`), `--fs-primary-fill: ${sidebarFill};`, `--fs-sidebar-accent: ${sidebarAccent};`].join(" ");
  const primary = (prefix: string) =>
    [
      `${prefix}-filled: ${filled};`,
      `${prefix}-filled-hover: ${mixColours(filled, "#000000", 0.15)};`,
      `${prefix}-light: color-mix(in srgb, ${theme.primary} 12%, transparent);`,
      `${prefix}-light-hover: color-mix(in srgb, ${theme.primary} 20%, transparent);`,
      `${prefix}-outline: ${theme.primary};`,
    ].join(" ");
  const scheme = (name: "light" | "dark", body: string, text: string) => {
    // Light-variant text sits on the primary's 20% wash (its hover) over the page.
    const wash = mixColours(body, theme.primary, 0.2);
    const accent = readableColour(theme.primary, wash, text);
    const error = readableColour(theme.danger, body, text);
    return `:root:root[data-mantine-color-scheme="${name}"] { --mantine-color-body: ${body}; --mantine-color-text: ${text}; --mantine-primary-color-light-color: ${accent}; --mantine-color-flagship-light-color: ${accent}; --mantine-color-anchor: ${readableColour(theme.primary, name === "dark" ? DARK_CARD : body, text)}; --mantine-color-error: ${error}; }`;
  };
  // Doubled :root outranks Mantine's own :root variables without !important.
  return [
    `:root:root { ${vars} ${primary("--mantine-primary-color")} ${primary("--mantine-color-flagship")} }`,
    scheme("light", theme.light, theme.dark),
    scheme("dark", theme.dark, theme.light),
  ].join("\n");
}

/**
 * Applies the event's theme (or the builder's live preview) to the whole app: CSS variables in
 * one style element and the sidebar style as a data attribute. Without a theme nothing changes.
 */
export function EventTheme() {
  const { config } = useAppData();
  const preview = useThemePreview();
  const theme = preview ?? (config?.theme as Theme | null | undefined) ?? null;
  useEffect(() => {
    const root = document.documentElement;
    if (theme) root.dataset.sidebar = theme.sidebarType;
    else delete root.dataset.sidebar;
  }, [theme]);
  if (!theme) return null;
  return <style data-testid="event-theme">{themeCss(theme)}</style>;
}
