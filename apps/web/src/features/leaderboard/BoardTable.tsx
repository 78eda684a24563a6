import { Anchor, Button, Center, Stack, Table, Text } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "../../lib/i18n.ts";
import "./board-table.css";

export interface BoardRow {
  id: number;
  name: string;
  points: number;
}

/** Place, name and points, with a load-more control when more rows exist. */
export function BoardTable({
  rows,
  total,
  kind,
  onLoadMore,
  loadingMore,
}: {
  rows: BoardRow[];
  total: number;
  kind: "team" | "user";
  onLoadMore: () => void;
  loadingMore: boolean;
}) {
  const { t } = useTranslation();
  if (rows.length === 0) {
    return (
      <Center py="xl">
        <Text c="dimmed">{t("leaderboard.empty")}</Text>
      </Center>
    );
  }
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={320}>
        <Table striped highlightOnHover verticalSpacing="xs" aria-label={t(kind === "team" ? "leaderboard.teams" : "leaderboard.users")}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={80}>{t("leaderboard.place")}</Table.Th>
              <Table.Th>{t(kind === "team" ? "leaderboard.team" : "leaderboard.user")}</Table.Th>
              <Table.Th ta="right">{t("leaderboard.points")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, i) => (
              <Table.Tr key={row.id}>
                <Table.Td fw={i < 3 ? 700 : undefined}>{i + 1}</Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={kind === "team" ? `/team/${row.id}` : `/profile/${row.id}`} fw={500} className="board-name" data-testid="board-name">
                    {row.name}
                  </Anchor>
                </Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {row.points}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length < total && (
        <Center>
          <Button variant="default" onClick={onLoadMore} loading={loadingMore}>
            {t("leaderboard.load_more")}
          </Button>
        </Center>
      )}
    </Stack>
  );
}
