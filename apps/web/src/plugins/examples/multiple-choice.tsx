import { Radio, Stack, Textarea } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { registerChallengeType, registerEditorType, type EditorRendererProps, type FlagInputProps } from "../../features/challenges/registry.tsx";

/**
 * A bundled example plugin: the "multipleChoice" challenge type. Players pick one answer from
 * challenge_metadata.choices; the chosen text is submitted as the flag (a plaintext flag set to the
 * right answer). Staff edit the choices in the challenge editor. Nothing in the core knows it.
 */

/** The answers; blank lines (which staff may be typing) only count in the editor. */
function choicesOf(metadata: Record<string, unknown>, keepBlank = false): string[] {
  const all = Array.isArray(metadata.choices) ? metadata.choices.filter((c): c is string => typeof c === "string") : [];
  return keepBlank ? all : all.filter((c) => c.trim() !== "");
}

function ChoiceInput({ challenge, value, onChange, disabled }: FlagInputProps) {
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

function ChoicesEditor({ draft, onChange }: EditorRendererProps) {
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

registerChallengeType("multipleChoice", {
  FlagInput: ChoiceInput,
  canSubmit: (challenge, value) => typeof value === "string" && choicesOf(challenge.challenge_metadata).includes(value),
});
registerEditorType("multipleChoice", ChoicesEditor);
