import { Alert, Button, Group, Skeleton, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { errorText } from "../auth/errors.ts";
import "./texts.ts";

/** The frame of every admin page: a heading, an optional intro and actions, then the content. */
export function AdminPage({ title, intro, actions, children }: { title: string; intro?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <Stack maw={1200} mx="auto" py="md" w="100%" gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={1}>{title}</Title>
          {intro && (
            <Text c="dimmed" size="sm" mt={4}>
              {intro}
            </Text>
          )}
        </div>
        {actions}
      </Group>
      {children}
    </Stack>
  );
}

interface QueryLike<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** Loading skeleton, the failure with a retry, or the content once the query has data. */
export function QueryState<T>({ query, children, rows = 5 }: { query: QueryLike<T>; children: (data: T) => ReactNode; rows?: number }) {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label={t("generic.loading")}>
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} h={32} />
        ))}
      </Stack>
    );
  }
  if (query.isError || query.data === undefined) {
    return (
      <Alert color="red" role="alert" title={t("admin_ui.load_failed")}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorText(query.error)}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
            {t("generic.retry")}
          </Button>
        </Stack>
      </Alert>
    );
  }
  return <>{children(query.data)}</>;
}

/** The empty state of a list. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <Text c="dimmed" ta="center" py="xl" data-testid="empty-state">
      {children}
    </Text>
  );
}
