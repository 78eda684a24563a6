import { Stack, Text } from "@mantine/core";
import type { QueryClient } from "@tanstack/react-query";

/** A staff form's title, with a line on what it does below it. */
export function FormHeading({ title, help }: { title: string; help?: string }) {
  return (
    <Stack gap={2}>
      <Text fw={600} size="sm">
        {title}
      </Text>
      {help && (
        <Text size="xs" c="dimmed">
          {help}
        </Text>
      )}
    </Stack>
  );
}

/** Reads again every query of these tRPC routers ('teams' for teams.list, teams.get, ...): what a staff write moved. */
export function refreshRouters(queryClient: QueryClient, routers: readonly string[]): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (q) => routers.includes(String((q.queryKey[0] as unknown[] | undefined)?.[0])) });
}
