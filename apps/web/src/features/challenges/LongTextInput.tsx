import { Textarea } from "@mantine/core";
import { useTranslation } from "../../lib/i18n.ts";
import type { FlagInputProps } from "./registry.tsx";

/** A long free-text answer; its own module, so the challenge page's first load carries no Textarea. */
export function LongTextInput({ value, onChange, disabled }: FlagInputProps) {
  const { t } = useTranslation();
  return (
    <Textarea
      label={t("challenges.flag")}
      placeholder={t("challenges.answer_placeholder")}
      value={typeof value === "string" ? value : ""}
      onChange={(e) => onChange(e.currentTarget.value)}
      disabled={disabled}
      autosize
      minRows={4}
      maxRows={16}
      data-testid="flag-input"
    />
  );
}
