import type { Theme } from "@flagship/shared";
import { useEffect } from "react";
import { useAppData } from "../../shell/useAppData.ts";
import { useThemePreview } from "./themeState.ts";

/** CSS for a theme: the palette variables, Mantine's primary colour, and each scheme's page colours. */
export function themeCss(theme: Theme): string {
  const palette = ["primary", "secondary", "success", "info", "warning", "danger", "dark", "light"] as const;
  const vars = palette.map((name) => `--fs-${name}: ${theme[name]};`).join(" ");
  const primary = (prefix: string) =>
    [
      `${prefix}-filled: ${theme.primary};`,
      `${prefix}-filled-hover: color-mix(in srgb, ${theme.primary} 85%, black);`,
      `${prefix}-light: color-mix(in srgb, ${theme.primary} 12%, transparent);`,
      `${prefix}-light-hover: color-mix(in srgb, ${theme.primary} 20%, transparent);`,
      `${prefix}-light-color: color-mix(in srgb, ${theme.primary} 80%, var(--mantine-color-text));`,
      `${prefix}-outline: ${theme.primary};`,
    ].join(" ");
  // Doubled :root outranks Mantine's own :root variables without !important.
  return [
    `:root:root { ${vars} ${primary("--mantine-primary-color")} ${primary("--mantine-color-flagship")} --mantine-color-anchor: color-mix(in srgb, ${theme.primary} 80%, var(--mantine-color-text)); --mantine-color-error: ${theme.danger}; }`,
    `:root:root[data-mantine-color-scheme="light"] { --mantine-color-body: ${theme.light}; --mantine-color-text: ${theme.dark}; }`,
    `:root:root[data-mantine-color-scheme="dark"] { --mantine-color-body: ${theme.dark}; --mantine-color-text: ${theme.light}; }`,
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
