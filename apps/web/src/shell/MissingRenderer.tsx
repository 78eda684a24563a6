import { Alert } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** Shown where a category, challenge or editor type has no registered renderer. */
export function MissingRenderer({ kind, type }: { kind: "category" | "challenge" | "editor"; type: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" title={t("generic.missing_renderer", { kind, type })}>
      {t("generic.plugin_hint")}
    </Alert>
  );
}
