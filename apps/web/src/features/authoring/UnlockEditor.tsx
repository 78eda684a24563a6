import { unlockExpression, unlockPicks, type UnlockOperator } from "@flagship/shared";
import { Alert, Button, Group, MultiSelect, Radio, Stack, Text } from "@mantine/core";
import { useTranslation } from "../../lib/i18n.ts";
import { unlockSentence } from "./draft.ts";
import "./texts.ts";

export interface UnlockOption {
  id: number;
  name: string;
  category: string;
}

/**
 * The unlock requirement, built by picking challenges (searchable by name, grouped by category)
 * and choosing whether all or any of them must be solved, read back as a sentence. It is stored as
 * the postfix expression the server evaluates; one that mixes AND and OR (typed under Advanced)
 * is read back but not shown as a list.
 */
export function UnlockEditor({ value, onChange, options, error }: { value: string; onChange(value: string): void; options: UnlockOption[]; error?: string }) {
  const { t } = useTranslation();
  const picks = unlockPicks(value);
  const names = new Map(options.map((o) => [o.id, o.name]));
  const sentence = error ? null : unlockSentence(value, names);
  if (!picks) {
    return (
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          {t("editor.unlocks")}
        </Text>
        <Alert color="yellow" role="status" data-testid="unlock-complex">
          <Stack gap="xs" align="flex-start">
            {sentence && <Text size="sm">{sentence}</Text>}
            <Text size="sm">{t("editor.unlock_complex")}</Text>
            <Button size="xs" variant="default" onClick={() => onChange("")}>
              {t("editor.unlock_start_over")}
            </Button>
          </Stack>
        </Alert>
      </Stack>
    );
  }
  // Challenges named by an id the list lacks (removed since, or in a hidden category) stay picked.
  const known = new Set(options.map((o) => o.id));
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const option of options) groups.set(option.category, [...(groups.get(option.category) ?? []), { value: String(option.id), label: option.name }]);
  const unknown = picks.ids.filter((id) => !known.has(id)).map((id) => ({ value: String(id), label: `#${id}` }));
  const data = [...[...groups].map(([group, items]) => ({ group, items })), ...(unknown.length > 0 ? [{ group: t("editor.unlock_unlisted"), items: unknown }] : [])];
  const update = (ids: number[], operator: UnlockOperator) => onChange(unlockExpression({ ids, operator }));
  return (
    <Stack gap="xs">
      <MultiSelect
        label={t("editor.unlocks")}
        description={t("editor.unlocks_help")}
        placeholder={picks.ids.length === 0 ? t("editor.unlock_search") : undefined}
        data={data}
        value={picks.ids.map(String)}
        onChange={(values) => update(values.map(Number), picks.operator)}
        searchable
        clearable
        hidePickedOptions
        nothingFoundMessage={t("editor.unlock_none")}
        error={error}
        comboboxProps={{ withinPortal: true }}
        data-testid="unlock-picker"
      />
      {picks.ids.length > 1 && (
        <Radio.Group label={t("editor.unlock_mode")} value={picks.operator} onChange={(v) => update(picks.ids, v === "OR" ? "OR" : "AND")}>
          <Group gap="lg" mt={4}>
            <Radio value="AND" label={t("editor.unlock_all")} />
            <Radio value="OR" label={t("editor.unlock_any")} />
          </Group>
        </Radio.Group>
      )}
      {sentence && (
        <Text size="sm" c="dimmed" data-testid="unlock-reading">
          {sentence}
        </Text>
      )}
    </Stack>
  );
}
