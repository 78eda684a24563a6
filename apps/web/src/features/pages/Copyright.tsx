import { Text } from "@mantine/core";
import { eventYears } from "@flagship/shared";
import { useTranslation } from "../../lib/i18n.ts";
import { useAppData } from "../../shell/useAppData.ts";

/** The footer's copyright line: the years of the event's own dates and its name. */
export function Copyright({ eventName }: { eventName: string }) {
  const { t } = useTranslation();
  const { config } = useAppData();
  const years = eventYears(config?.start_time ?? null, config?.end_time ?? null, Date.now() / 1000);
  return (
    <Text size="sm" c="dimmed" data-testid="footer-copyright">
      {t("footer.copyright", { years, event: eventName })}
    </Text>
  );
}
