import { Button, Stack, Text, Title } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "../lib/i18n.ts";

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" my={80} gap="md" ta="center">
      <Text fz={72} fw={800} c="dimmed" aria-hidden lh={1}>
        404
      </Text>
      <Title order={1}>{t("generic.not_found")}</Title>
      <Text c="dimmed">{t("generic.not_found_body")}</Text>
      <Button component={Link} to="/">
        {t("generic.back_home")}
      </Button>
    </Stack>
  );
}
