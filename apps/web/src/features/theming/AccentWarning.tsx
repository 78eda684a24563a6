import { accentContrastShortfall } from "@flagship/shared";
import { Alert } from "@mantine/core";
import { addTexts, useTranslation } from "../../lib/i18n.ts";

addTexts({
  accent: {
    contrast_title: "Hard to read as picked",
    contrast:
      "This colour reads at only {{ratio}}:1 under white text or on the page (4.5:1 is needed). Flagship shows a readable shade of it on buttons, links and the sidebar's current entry, in the light and the dark scheme alike, so they will look a little different from what you picked. Pick a darker colour to see it exactly.",
  },
});

/**
 * Under an accent colour picker: a warning when the picked colour itself would not read (white
 * text on it, or it as text on the light page), saying that a readable shade is shown instead.
 */
export function AccentWarning({ colour, page }: { colour: string; page?: string }) {
  const { t } = useTranslation();
  const ratio = accentContrastShortfall(colour, page);
  if (ratio === null) return null;
  return (
    <Alert color="yellow" variant="light" title={t("accent.contrast_title")} role="status" data-testid="accent-warning">
      {t("accent.contrast", { ratio })}
    </Alert>
  );
}
