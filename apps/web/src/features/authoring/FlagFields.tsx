import { FLAG_TYPES } from "@flagship/shared";
import { Group, NumberInput, Select, Stack, Textarea, TextInput } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { parseJsonObject } from "./MarkdownField.tsx";

/**
 * The flag type and its metadata: fields for the type's own keys (flag, or location and radius
 * for map flags) kept in step with the metadata's JSON, which staff may also edit directly.
 */
export function FlagFields({ flagType, metadata, onFlagType, onMetadata, error }: { flagType: string; metadata: string; onFlagType(value: string): void; onMetadata(value: string): void; error?: string }) {
  const { t } = useTranslation();
  const parsed = parseJsonObject(metadata);
  const set = (patch: Record<string, unknown>) => onMetadata(JSON.stringify({ ...parsed, ...patch }, null, 2));
  const location = Array.isArray(parsed?.location) ? (parsed.location as unknown[]) : [];
  const flag = typeof parsed?.flag === "string" ? parsed.flag : "";
  return (
    <Stack gap="sm">
      <Select
        label={t("editor.flag_type")}
        data={[...FLAG_TYPES]}
        value={flagType}
        onChange={(v) => v && onFlagType(v)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        data-testid="flag-type"
      />
      {parsed && flagType === "map" && (
        <Group grow wrap="wrap" align="flex-start">
          <NumberInput label={t("editor.latitude")} min={-90} max={90} decimalScale={6} value={typeof location[0] === "number" ? location[0] : ""} onChange={(v) => set({ location: [Number(v) || 0, typeof location[1] === "number" ? location[1] : 0] })} miw={120} />
          <NumberInput label={t("editor.longitude")} min={-180} max={180} decimalScale={6} value={typeof location[1] === "number" ? location[1] : ""} onChange={(v) => set({ location: [typeof location[0] === "number" ? location[0] : 0, Number(v) || 0] })} miw={120} />
          <NumberInput label={t("editor.radius")} min={0} decimalScale={3} value={typeof parsed.radius === "number" ? parsed.radius : ""} onChange={(v) => set({ radius: Number(v) || 0 })} miw={120} />
        </Group>
      )}
      {parsed && flagType !== "map" && (
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
