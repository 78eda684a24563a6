import { flagPartialOk } from "@flagship/shared";
import { Badge, Group, Stack, Text, TextInput } from "@mantine/core";
import { useTranslation } from "../../lib/i18n.ts";
import { useAppData } from "../../shell/useAppData.ts";
import type { FlagInputProps } from "./registry.tsx";
import type { ChallengeView } from "./types.ts";

function formatInput(challenge: ChallengeView, flagPrefix: string) {
  return { challengeType: challenge.challenge_type, challengeMetadata: challenge.challenge_metadata, flagPrefix };
}

/** The default type: one line, checked against flag_regex or `<prefix>{...}` as the player types. */
export function DefaultFlagInput({ challenge, value, onChange, disabled, onSubmit }: FlagInputProps) {
  const { t } = useTranslation();
  const prefix = useAppData().config?.flag_prefix ?? "flag";
  const text = typeof value === "string" ? value : "";
  const input = formatInput(challenge, prefix);
  const guidance = !flagPartialOk(input, text);
  const custom = typeof challenge.challenge_metadata.flag_regex === "string" && challenge.challenge_metadata.flag_regex !== "";
  return (
    <TextInput
      label={t("challenges.flag")}
      placeholder={custom ? t("challenges.answer_placeholder") : t("challenges.flag_placeholder", { prefix })}
      value={text}
      onChange={(e) => onChange(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") onSubmit();
      }}
      readOnly={disabled}
      aria-busy={disabled || undefined}
      autoComplete="off"
      spellCheck={false}
      styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
      error={guidance ? (custom ? t("challenges.format_custom") : t("challenges.format_hint", { format: `${prefix}{...}` })) : undefined}
      description={!guidance && !custom ? t("challenges.format_hint", { format: `${prefix}{...}` }) : undefined}
      data-testid="flag-input"
    />
  );
}

export function FreeformInput({ value, onChange, disabled, onSubmit }: FlagInputProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t("challenges.flag")}
      placeholder={t("challenges.answer_placeholder")}
      value={typeof value === "string" ? value : ""}
      onChange={(e) => onChange(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") onSubmit();
      }}
      readOnly={disabled}
      aria-busy={disabled || undefined}
      autoComplete="off"
      data-testid="flag-input"
    />
  );
}

/** Shown above a code editor: which language the challenge expects. */
export function CodeLanguage({ language }: { language: string }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs">
      <Badge variant="light">{t("challenges.code_language", { language })}</Badge>
    </Group>
  );
}

export function MapSelection({ value }: { value: [number, number] | null }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text size="sm" c="dimmed">
        {t("challenges.map_instructions")}
      </Text>
      <Text size="sm" fw={500} data-testid="map-selection">
        {value ? t("challenges.map_selected", { lat: value[0].toFixed(4), lon: value[1].toFixed(4) }) : t("challenges.map_none")}
      </Text>
    </Stack>
  );
}
