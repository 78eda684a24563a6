import { Alert } from "@mantine/core";
import { useTranslation } from "../lib/i18n.ts";

/** Shown where a category, challenge, editor (or other plugin) type has no registered renderer. */
export function MissingRenderer({ kind, type }: { kind: "category" | "challenge" | "editor" | "flag" | "login provider"; type: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" title={t("generic.missing_renderer", { kind, type })} styles={{ title: { color: "var(--mantine-color-text)" } }}>
      {t("generic.plugin_hint")}
    </Alert>
  );
}
