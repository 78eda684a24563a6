import { Radio, Stack, Textarea } from "@mantine/core";
import { useTranslation } from "../../lib/i18n.ts";
import type { EditorRendererProps, FlagInputProps } from "../../features/challenges/registry.tsx";
import { choicesOf } from "./choices.ts";

/** The multiple-choice plugin's flag input (radio buttons) and its editor fields (choices, one a line). */

export function ChoiceInput({ challenge, value, onChange, disabled }: FlagInputProps) {
  const { t } = useTranslation();
  return (
    <Radio.Group label={t("plugins.choose")} value={typeof value === "string" ? value : null} onChange={onChange}>
      <Stack gap="xs" mt="xs">
        {choicesOf(challenge.challenge_metadata).map((choice) => (
          <Radio key={choice} value={choice} label={choice} disabled={disabled} />
        ))}
      </Stack>
    </Radio.Group>
  );
}

export function ChoicesEditor({ draft, onChange }: EditorRendererProps) {
  const { t } = useTranslation();
  let metadata: Record<string, unknown> = {};
  try {
    metadata = draft.challenge_metadata.trim() === "" ? {} : (JSON.parse(draft.challenge_metadata) as Record<string, unknown>);
  } catch {
    // The editor's own metadata field reports invalid JSON.
  }
  return (
    <Textarea
      label={t("plugins.choices")}
      description={t("plugins.choices_help")}
      value={choicesOf(metadata, true).join("\n")}
      onChange={(e) => onChange({ challenge_metadata: JSON.stringify({ ...metadata, choices: e.currentTarget.value.split("\n") }, null, 2) })}
      autosize
      minRows={3}
    />
  );
}
