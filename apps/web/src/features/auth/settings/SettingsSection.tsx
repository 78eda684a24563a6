import { Card, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** One settings card: a title, a one-line explanation and its form. */
export function SettingsSection({ title, intro, children, danger, testId }: { title: string; intro?: ReactNode; children: ReactNode; danger?: boolean; testId?: string }) {
  return (
    <Card withBorder radius="md" padding="lg" data-testid={testId} style={danger ? { borderColor: "var(--mantine-color-red-outline)" } : undefined}>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} size="h4" c={danger ? "var(--mantine-color-red-light-color)" : undefined}>
            {title}
          </Title>
          {intro && (
            <Text size="sm" c="dimmed">
              {intro}
            </Text>
          )}
        </Stack>
        {children}
      </Stack>
    </Card>
  );
}
