import { Alert, Button, Code, Collapse, CopyButton, Group, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "../lib/i18n.ts";

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}${error.stack ? `\n\n${error.stack}` : ""}`;
  return String(error);
}

/** 'This page failed to load.' with the details to copy or view. */
export function PageFailedScreen({ error, reset }: { error: unknown; reset?: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const details = describe(error);
  return (
    <Stack maw={720} mx="auto" my="xl" role="alert">
      <Title order={2}>{t("generic.page_failed")}</Title>
      <Text c="dimmed">{error instanceof Error ? error.message : t("generic.unknown")}</Text>
      <Group>
        <CopyButton value={details}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? t("generic.copied") : t("generic.copy")}
            </Button>
          )}
        </CopyButton>
        <Button variant="subtle" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          {open ? t("generic.hide_details") : t("generic.view_details")}
        </Button>
        {reset && <Button onClick={reset}>{t("generic.retry")}</Button>}
      </Group>
      <Collapse expanded={open}>
        <Code block>{details}</Code>
      </Collapse>
    </Stack>
  );
}

/** The generic failure: 'Something went wrong'. */
export function SomethingWentWrong({ message }: { message?: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={t("generic.something_wrong")} role="alert" maw={720} mx="auto" my="xl">
      {message ?? t("generic.unknown")}
      <Group mt="md">
        <Button size="xs" variant="white" color="red" onClick={() => window.location.reload()}>
          {t("generic.reload")}
        </Button>
      </Group>
    </Alert>
  );
}
