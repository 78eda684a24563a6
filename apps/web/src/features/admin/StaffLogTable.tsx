import { Button, Stack, Table, Text } from "@mantine/core";
import type { CSSProperties, Key, ReactNode } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { EmptyState, QueryState } from "./AdminPage.tsx";
import { StackedTable } from "./StackedTable.tsx";

/** One column of a staff log: its heading (also each stacked cell's label on a phone) and its cell. */
export interface LogColumn<T> {
  label: string;
  cell: (row: T) => ReactNode;
  /** Keeps the cell on one line (times). */
  nowrap?: boolean;
  maw?: number;
}

/** What a log's infinite query gives the table (useInfiniteQuery's result has all of it). */
interface LogQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: unknown;
  refetch: () => unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

const NOWRAP: CSSProperties = { whiteSpace: "nowrap" };

/**
 * A staff log read page by page, newest first (the submissions log, the audit log): loading
 * skeleton, error with retry, empty text, the count above (announced as it changes), the rows in a
 * table that stacks on a phone, and "Load more" while older pages remain.
 */
export function StaffLogTable<T>({
  query,
  rows,
  rowKey,
  columns,
  count,
  empty,
  minWidth,
  testId,
  rowTestId,
}: {
  query: LogQuery;
  rows: T[];
  rowKey: (row: T) => Key;
  columns: LogColumn<T>[];
  /** The count line above the table, e.g. "1,204 submissions". */
  count: ReactNode;
  empty: ReactNode;
  minWidth: number;
  testId: string;
  rowTestId?: string;
}) {
  const { t } = useTranslation();
  return (
    <QueryState query={query}>
      {() =>
        rows.length === 0 ? (
          <EmptyState>{empty}</EmptyState>
        ) : (
          <Stack>
            <Text size="sm" c="dimmed" role="status" data-testid={`${testId}-count`}>
              {count}
            </Text>
            <StackedTable minWidth={minWidth}>
              <Table striped verticalSpacing="xs" data-testid={testId}>
                <Table.Thead>
                  <Table.Tr>
                    {columns.map((column) => (
                      <Table.Th key={column.label}>{column.label}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => (
                    <Table.Tr key={rowKey(row)} data-testid={rowTestId}>
                      {columns.map((column) => (
                        <Table.Td key={column.label} data-label={column.label} maw={column.maw} style={column.nowrap ? NOWRAP : undefined}>
                          {column.cell(row)}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </StackedTable>
            {query.hasNextPage && (
              <Button variant="default" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage} w="fit-content" mx="auto">
                {t("admin_ui.load_more")}
              </Button>
            )}
          </Stack>
        )
      }
    </QueryState>
  );
}
