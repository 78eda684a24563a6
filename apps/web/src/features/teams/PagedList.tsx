import { Alert, Button, Card, Center, Group, Loader, Skeleton, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { type ReactNode, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";

export const PAGE_SIZE = 50;

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  align?: "left" | "right";
  width?: number;
}

interface PageData<Row> {
  count: number;
  results: Row[];
}

/** The parts of an infinite query the list reads. */
export interface ListQuery<Row> {
  data?: { pages: PageData<Row>[] };
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  isFetchingNextPage: boolean;
  hasNextPage: boolean;
  refetch: () => Promise<unknown>;
  fetchNextPage: () => Promise<unknown>;
}

/** The search term, debounced so typing does not fire a request per key. */
export function useSearch() {
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search.trim(), 250);
  return { search, setSearch, term: debounced };
}

/** Next page's offset from what is loaded so far; undefined when everything is here. */
export function nextOffset<Row>(last: PageData<Row>, pages: PageData<Row>[]): number | undefined {
  const loaded = pages.reduce((n, p) => n + p.results.length, 0);
  return loaded < last.count && last.results.length > 0 ? loaded : undefined;
}

/**
 * A paged, searchable list: a table with a load-more control, the paginated-list error with a
 * retry, and an empty state that says whether a search found nothing.
 */
export function PagedList<Row extends { id: number }>({
  title,
  searchLabel,
  search,
  onSearch,
  query,
  columns,
  emptyText,
  label,
}: {
  title: string;
  searchLabel: string;
  search: string;
  onSearch: (value: string) => void;
  query: ListQuery<Row>;
  columns: Column<Row>[];
  emptyText: string;
  label: string;
}) {
  const { t } = useTranslation();
  const rows = query.data?.pages.flatMap((p) => p.results) ?? [];
  const total = query.data?.pages[0]?.count ?? 0;

  let body: ReactNode;
  if (query.isPending) {
    body = (
      <Stack gap="xs" p="md">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} h={28} />
        ))}
      </Stack>
    );
  } else if (query.isError && rows.length === 0) {
    body = (
      <Alert color="red" m="md" title={t("lists.paginated_error")} role="alert">
        <Button size="xs" variant="white" color="red" onClick={() => void query.refetch()}>
          {t("generic.retry")}
        </Button>
      </Alert>
    );
  } else if (rows.length === 0) {
    body = (
      <Center py="xl">
        <Text c="dimmed">{search.trim() ? t("teams.no_results") : emptyText}</Text>
      </Center>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={320}>
        <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.header} ta={c.align} w={c.width}>
                  {c.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id}>
                {columns.map((c) => (
                  <Table.Td key={c.header} ta={c.align}>
                    {c.cell(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Stack maw={960} mx="auto" gap="md" py="sm">
      <Group justify="space-between" align="end" wrap="wrap">
        <Title order={1}>{title}</Title>
        <TextInput
          placeholder={searchLabel}
          aria-label={searchLabel}
          value={search}
          onChange={(e) => onSearch(e.currentTarget.value)}
          w={{ base: "100%", xs: 280 }}
          rightSection={query.isFetching && !query.isFetchingNextPage ? <Loader size={14} /> : null}
        />
      </Group>
      <Card withBorder padding={0} radius="md">
        {body}
      </Card>
      {query.isError && rows.length > 0 && (
        <Alert color="red" title={t("lists.paginated_error")} role="alert">
          <Button size="xs" variant="white" color="red" onClick={() => void query.fetchNextPage()}>
            {t("generic.retry")}
          </Button>
        </Alert>
      )}
      {query.hasNextPage && !query.isError && (
        <Center>
          <Button variant="default" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            {t("teams.load_more")} ({rows.length} / {total})
          </Button>
        </Center>
      )}
    </Stack>
  );
}
