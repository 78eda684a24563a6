import { Switch } from "@mantine/core";
import { useTranslation } from "../../lib/i18n.ts";
import "../authoring/texts.ts";
import { setSynthwave, useSynthwave } from "./themeState.ts";

/** This browser's synthwave countdown toggle. */
export function SynthwaveToggle() {
  const { t } = useTranslation();
  const on = useSynthwave();
  return <Switch label={t("theme.synthwave")} description={t("theme.synthwave_help")} checked={on} onChange={(e) => setSynthwave(e.currentTarget.checked)} data-testid="synthwave-toggle" />;
}
