import { Alert, Badge, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";
import { errorText } from "./errors.ts";

/** /admin/outbox (staff): mail kept when no SMTP server is configured. */
export function OutboxPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const outbox = useQuery(trpc.mail.outbox.queryOptions({ limit: 100 }));
  if (outbox.isPending) return <LoadingScreen />;
  if (outbox.isError) return <Alert color="red">{errorText(outbox.error)}</Alert>;
  return (
    <Stack maw={900} mx="auto" py="md">
      <Title order={1}>{t("outbox.title")}</Title>
      <Text c="dimmed">{outbox.data.delivers ? t("outbox.delivering") : t("outbox.intro")}</Text>
      {outbox.data.results.length === 0 && <Text c="dimmed">{t("outbox.empty")}</Text>}
      {outbox.data.results.map((mail) => (
        <Card key={mail.id} withBorder radius="md" data-testid="outbox-mail">
          <Stack gap={6}>
            <Group justify="space-between">
              <Text fw={600}>{mail.subject}</Text>
              <Badge variant="light">{new Date(mail.created_at).toLocaleString()}</Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {t("outbox.to")}: {mail.to}
            </Text>
            <Text size="sm" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
              {mail.text}
            </Text>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
