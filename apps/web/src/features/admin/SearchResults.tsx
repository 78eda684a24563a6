import { Alert, Stack, Table, Text, TextInput, UnstyledButton } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import type { ReactNode } from "react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { QueryState } from "./AdminPage.tsx";
import { StackedTable } from "./StackedTable.tsx";
import "./texts.ts";

/** How many results an admin search shows; more than this asks for a narrower search. */
export const SEARCH_LIMIT = 25;

/** A debounced search term for the admin searches. */
export function useAdminSearch() {
  const [search, setSearch] = useState("");
  const [term] = useDebouncedValue(search.trim(), 250);
  return { search, setSearch, term };
}

export function SearchBox({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  return <TextInput type="search" label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)} maw={480} />;
}

interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
}

/**
 * The result table of a member or team search: each row opens the editor; 'No results found.' and
 * 'Additional results were omitted. Please refine your search.' as the spec words them.
 */
export function SearchResults<Row extends { id: number }>({
  query,
  columns,
  onOpen,
  label,
  selected,
  minWidth = 420,
}: {
  query: { data: { count: number; results: Row[] } | undefined; isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  columns: Column<Row>[];
  onOpen: (row: Row) => void;
  label: (row: Row) => string;
  selected: number | null;
  /** Below this width the table scrolls sideways (on a phone its rows stack instead). */
  minWidth?: number;
}) {
  const { t } = useTranslation();
  return (
    <QueryState query={query}>
      {(page) =>
        page.results.length === 0 ? (
          <Text c="dimmed" py="md">
            {t("admin_ui.no_results")}
          </Text>
        ) : (
          <Stack gap="xs">
            <StackedTable minWidth={minWidth}>
              <Table highlightOnHover verticalSpacing="xs" data-testid="search-results">
                <Table.Thead>
                  <Table.Tr>
                    {columns.map((c) => (
                      <Table.Th key={c.header}>{c.header}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {page.results.map((row) => (
                    <Table.Tr key={row.id} bg={selected === row.id ? "var(--mantine-primary-color-light)" : undefined}>
                      {columns.map((c, i) => (
                        <Table.Td key={c.header} data-label={c.header}>
                          {i === 0 ? (
                            <UnstyledButton onClick={() => onOpen(row)} fw={600} c="var(--mantine-color-anchor)" aria-label={t("admin_ui.open_named", { name: label(row) })}>
                              {c.cell(row)}
                            </UnstyledButton>
                          ) : (
                            c.cell(row)
                          )}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </StackedTable>
            {page.count > page.results.length && (
              <Alert color="yellow" variant="light" data-testid="results-omitted">
                {t("admin_ui.results_omitted")}
              </Alert>
            )}
          </Stack>
        )
      }
    </QueryState>
  );
}

/** A ref that brings its element into view once, when it first appears (an editor opened below a list). */
export function useRevealOnOpen<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, []);
  return ref;
}
