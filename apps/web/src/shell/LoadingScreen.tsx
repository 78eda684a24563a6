import { Center, Loader, Stack, Text } from "@mantine/core";
import { TIMINGS } from "@flagship/shared";
import { useEffect, useState } from "react";
import { useTranslation } from "../lib/i18n.ts";

/** Full-area spinner; after 5 seconds it adds a warning that loading is slow. */
export function LoadingScreen() {
  const { t } = useTranslation();
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), TIMINGS.loadingWarningMs);
    return () => clearTimeout(timer);
  }, []);
  return (
    <Center mih="50vh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader size="lg" aria-hidden />
        <Text c="dimmed">{t("generic.loading")}</Text>
        {slow && (
          <Text c="var(--mantine-color-orange-light-color)" size="sm" maw={360} ta="center" data-testid="loading-warning">
            {t("generic.loading_slow")}
          </Text>
        )}
      </Stack>
    </Center>
  );
}
