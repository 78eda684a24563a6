import { Select, Stack, Textarea, TextInput } from "@mantine/core";
import { flagTypes } from "../../plugins/extensions.tsx";
import { MissingRenderer } from "../../shell/MissingRenderer.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { parseJsonObject } from "./MarkdownField.tsx";

/**
 * The flag type and its metadata: fields for the type's own keys (flag, or location and radius
 * for map flags) kept in step with the metadata's JSON, which staff may also edit directly.
 */
export function FlagFields({ flagType, metadata, onFlagType, onMetadata, error }: { flagType: string; metadata: string; onFlagType(value: string): void; onMetadata(value: string): void; error?: string }) {
  const { t } = useTranslation();
  const parsed = parseJsonObject(metadata);
  const set = (patch: Record<string, unknown>) => onMetadata(JSON.stringify({ ...parsed, ...patch }, null, 2));
  const entry = flagTypes.get(flagType);
  const Fields = entry?.Fields;
  const flag = typeof parsed?.flag === "string" ? parsed.flag : "";
  return (
    <Stack gap="sm">
      <Select
        label={t("editor.flag_type")}
        data={flagTypes.names().includes(flagType) ? flagTypes.names() : [...flagTypes.names(), flagType]}
        value={flagType}
        onChange={(v) => v && onFlagType(v)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        data-testid="flag-type"
      />
      {parsed && Fields && <Fields metadata={parsed} onChange={set} />}
      {parsed && !entry && <MissingRenderer kind="flag" type={flagType} />}
      {parsed && entry && !Fields && (
        <TextInput
          label={flagType === "hashed" ? t("editor.flag_hash") : flagType === "regex" ? t("editor.flag_regex") : t("editor.flag")}
          description={t(`editor.flag_help_${flagType}`)}
          value={flag}
          onChange={(e) => set({ flag: flagType === "hashed" ? e.currentTarget.value.trim().toLowerCase() : e.currentTarget.value })}
          maxLength={flagType === "hashed" ? 64 : undefined}
          data-testid="flag-value"
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
        />
      )}
      <Textarea
        label={t("editor.flag_metadata")}
        description={t("editor.flag_metadata_help")}
        value={metadata}
        onChange={(e) => onMetadata(e.currentTarget.value)}
        error={error}
        autosize
        minRows={2}
        data-testid="flag-metadata"
        styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
      />
    </Stack>
  );
}
