import { Center, Paper, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { Logo } from "../../shell/Logo.tsx";

/** The centred card the logged-out screens share. */
export function AuthCard({ title, intro, children, width = 440 }: { title: string; intro?: ReactNode; children: ReactNode; width?: number }) {
  return (
    <Center py={{ base: "md", sm: 48 }}>
      <Paper withBorder shadow="sm" radius="lg" p={{ base: "lg", sm: 32 }} w="100%" maw={width}>
        <Stack gap="lg">
          <Stack gap={4}>
            <Logo size={36} />
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
