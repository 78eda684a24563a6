import { Stack, TextInput } from "@mantine/core";
import { useTranslation } from "../lib/i18n.ts";
import "../features/sharing/texts.ts";

/** A per-team flag's one setting: the secret each team's flag is derived from (empty: generated). */
export function DynamicFlagFields({ metadata, onChange }: { metadata: Record<string, unknown>; onChange(patch: Record<string, unknown>): void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <TextInput
        label={t("sharing.secret")}
        description={t("sharing.dynamic_help")}
        value={typeof metadata.secret === "string" ? metadata.secret : ""}
        onChange={(e) => onChange({ secret: e.currentTarget.value === "" ? undefined : e.currentTarget.value })}
        autoComplete="off"
        data-testid="flag-secret"
        styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
      />
    </Stack>
  );
}
