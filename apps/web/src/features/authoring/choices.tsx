import { Select, Stack, Text } from "@mantine/core";
import { spellOut } from "@flagship/shared";
import { i18n } from "../../lib/i18n.ts";

export type ChoiceKind = "challenge_type" | "flag_type" | "points_type" | "decay_curve" | "difficulty" | "category_type";

export interface Choice {
  value: string;
  label: string;
  description: string;
}

/**
 * Stored values as staff read them: a name and a one-line description from the editor's texts.
 * A value without texts (a plugin's own type) is spelled out ('multipleChoice' is 'Multiple
 * choice'), with no description.
 */
export function choicesOf(kind: ChoiceKind, values: readonly string[]): Choice[] {
  return values.map((value) => {
    const key = `editor.choices.${kind}.${value}`;
    return i18n.exists(key) ? { value, label: i18n.t(key), description: i18n.t(`${key}_help`) } : { value, label: spellOut(value) || value, description: "" };
  });
}

/**
 * A select of labelled choices: each option shows its description under its name, and the field
 * describes the chosen one, so staff never meet the stored words.
 */
export function ChoiceSelect({ label, choices, value, onChange, error, required, testId }: { label: string; choices: Choice[]; value: string; onChange(value: string): void; error?: string; required?: boolean; testId?: string }) {
  const descriptions = new Map(choices.map((c) => [c.value, c.description]));
  const data = choices.some((c) => c.value === value) ? choices : [...choices, { value, label: spellOut(value) || value, description: "" }];
  return (
    <Select
      label={label}
      required={required}
      data={data.map(({ value: v, label: l }) => ({ value: v, label: l }))}
      value={value}
      onChange={(v) => v !== null && onChange(v)}
      allowDeselect={false}
      error={error}
      description={descriptions.get(value) || undefined}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
      renderOption={({ option }) => (
        <Stack gap={0}>
          <Text size="sm">{option.label}</Text>
          {descriptions.get(option.value) && (
            <Text size="xs" c="dimmed">
              {descriptions.get(option.value)}
            </Text>
          )}
        </Stack>
      )}
    />
  );
}
