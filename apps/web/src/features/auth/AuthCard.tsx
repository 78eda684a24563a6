import { Center, Group, Paper, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { useAppData } from "../../shell/useAppData.ts";
import { useLogoSrc } from "../theming/logo-src.ts";

/**
 * The centred card the logged-out screens share, under the event's own logo and name (the logo
 * staff uploaded, served at /logo; Flagship's mark until they do).
 */
export function AuthCard({ title, intro, children, width = 440 }: { title: string; intro?: ReactNode; children: ReactNode; width?: number }) {
  const { config } = useAppData();
  const logoSrc = useLogoSrc();
  return (
    <Center py={{ base: "md", sm: 48 }}>
      <Paper withBorder shadow="sm" radius="lg" p={{ base: "lg", sm: 32 }} w="100%" maw={width}>
        <Stack gap="lg">
          <Stack gap={4}>
            <Group gap="sm" wrap="nowrap" data-testid="auth-card-event">
              {/* Decorative: the event's name is written beside it. */}
              <img src={logoSrc} alt="" width={40} height={40} style={{ objectFit: "contain", flexShrink: 0 }} />
              <Text fw={700} size="lg" truncate="end">
                {config?.event_name || "Flagship CTF"}
              </Text>
            </Group>
            <Title order={1} size="h2" mt="sm">
              {title}
            </Title>
            {intro && (
              <Text c="dimmed" size="sm">
                {intro}
              </Text>
            )}
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
