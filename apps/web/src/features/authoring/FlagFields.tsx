import { hashFlag } from "@flagship/shared";
import { Alert, Stack, TextInput } from "@mantine/core";
import { useState } from "react";
import { flagTypes } from "../../plugins/extensions.tsx";
import { MissingRenderer } from "../../shell/MissingRenderer.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { ChoiceSelect, choicesOf } from "./choices.tsx";
import { patchJsonText } from "./draft.ts";
import { parseJsonObject } from "./MarkdownField.tsx";
import "./texts.ts";

/**
 * The flag type, as labelled choices, and its settings as fields: the flag or pattern for text
 * types, the location and radius for map flags, or a plugin type's own fields. They edit the flag
 * metadata, whose JSON staff also see under Advanced.
 */
export function FlagFields({ flagType, metadata, onFlagType, onMetadata, error }: { flagType: string; metadata: string; onFlagType(value: string): void; onMetadata(value: string): void; error?: string }) {
  const { t } = useTranslation();
  const parsed = parseJsonObject(metadata);
  const set = (patch: Record<string, unknown>) => onMetadata(patchJsonText(metadata, patch));
  const entry = flagTypes.get(flagType);
  const Fields = entry?.Fields;
  const flag = typeof parsed?.flag === "string" ? parsed.flag : "";
  // A hashed flag's plain text is never stored: it lives here only while staff type it.
  const [plain, setPlain] = useState("");
  return (
    <Stack gap="sm">
      <ChoiceSelect label={t("editor.flag_type")} choices={choicesOf("flag_type", flagTypes.names())} value={flagType} onChange={onFlagType} testId="flag-type" />
      {!parsed && (
        <Alert color="red" role="alert">
          {t("editor.flag_json_broken")}
        </Alert>
      )}
      {parsed && Fields && <Fields metadata={parsed} onChange={set} />}
      {parsed && Fields && error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {parsed && !entry && <MissingRenderer kind="flag" type={flagType} />}
      {parsed && entry && !Fields && flagType === "hashed" && (
        <TextInput
          label={t("editor.flag_to_hash")}
          description={t("editor.flag_to_hash_help")}
          value={plain}
          onChange={(e) => {
            setPlain(e.currentTarget.value);
            set({ flag: e.currentTarget.value === "" ? "" : hashFlag(e.currentTarget.value) });
          }}
          autoComplete="off"
          data-testid="flag-plain"
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
        />
      )}
      {parsed && entry && !Fields && (
        <TextInput
          label={flagType === "hashed" ? t("editor.flag_hash") : flagType === "regex" ? t("editor.flag_regex") : t("editor.flag")}
          description={t(`editor.flag_help_${flagType}`, { defaultValue: "" }) || undefined}
          value={flag}
          onChange={(e) => {
            if (flagType === "hashed") setPlain("");
            set({ flag: flagType === "hashed" ? e.currentTarget.value.trim().toLowerCase() : e.currentTarget.value });
          }}
          maxLength={flagType === "hashed" ? 64 : undefined}
          error={error}
          data-testid="flag-value"
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
        />
      )}
    </Stack>
  );
}
