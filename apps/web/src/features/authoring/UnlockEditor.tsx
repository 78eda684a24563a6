import { unlockError } from "@flagship/shared";
import { Button, Group, Select, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { describeUnlock } from "./draft.ts";

export interface UnlockOption {
  id: number;
  name: string;
}

/**
 * The unlock-requirement editor: the postfix expression as text, checked as it is typed by the
 * same parser the server uses (so its messages are the server's), plus buttons that build it.
 */
export function UnlockEditor({ value, onChange, options, error }: { value: string; onChange(value: string): void; options: UnlockOption[]; error?: string }) {
  const { t } = useTranslation();
  const [pick, setPick] = useState<string | null>(null);
  const names = new Map(options.map((o) => [o.id, o.name]));
  const message = error ?? unlockError(value.trim() === "" ? "" : value);
  const reading = message ? null : value.trim() === "" ? t("editor.unlock_always") : t("editor.unlock_reads", { text: describeUnlock(value, names) });
  const append = (word: string) => onChange(value.trim() === "" ? word : `${value.trim()} ${word}`);
  return (
    <Stack gap="xs">
      <TextInput
        label={t("editor.unlocks")}
        description={t("editor.unlocks_help")}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        error={message ?? undefined}
        data-testid="unlock-input"
        styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
      />
      {reading && (
        <Text size="sm" c="dimmed" data-testid="unlock-reading">
          {reading}
        </Text>
      )}
      <Group gap="xs" align="flex-end" wrap="wrap">
        <Select
          label={t("editor.unlock_pick")}
          data={options.map((o) => ({ value: String(o.id), label: `${o.name} (#${o.id})` }))}
          value={pick}
          onChange={setPick}
          searchable
          w={{ base: "100%", xs: 260 }}
          comboboxProps={{ withinPortal: true }}
        />
        <Button variant="light" disabled={pick === null} onClick={() => pick && append(pick)}>
          {t("editor.unlock_add")}
        </Button>
        <Button variant="default" onClick={() => append("AND")}>
          {t("editor.unlock_and")}
        </Button>
        <Button variant="default" onClick={() => append("OR")}>
          {t("editor.unlock_or")}
        </Button>
        <Button variant="subtle" color="gray" onClick={() => onChange("")}>
          {t("editor.unlock_clear")}
        </Button>
      </Group>
    </Stack>
  );
}
