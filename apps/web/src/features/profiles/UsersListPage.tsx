import { Anchor, Group, Text } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { type Column, nextOffset, PAGE_SIZE, PagedList, useSearch } from "../teams/PagedList.tsx";
import type { MemberData } from "../teams/types.ts";
import { NameAvatar } from "./Avatar.tsx";

type Row = Pick<MemberData, "id" | "username" | "team" | "team_name">;

/** /users: everyone visible, by username; the Team column only when teams are on. */
export function UsersListPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { config } = useAppData();
  const { search, setSearch, term } = useSearch();
  // The players: staff accounts run the event and are not listed among them.
  const query = useInfiniteQuery(
    trpc.users.list.infiniteQueryOptions({ limit: PAGE_SIZE, is_staff: false, ...(term && { search: term }) }, { getNextPageParam: nextOffset, initialCursor: 0 }),
  );
  const columns: Column<Row>[] = [
    {
      header: t("profiles.name"),
      cell: (user) => (
        <Group gap="sm" wrap="nowrap">
          <NameAvatar name={user.username} size={28} />
          <Anchor component={Link} to={`/profile/${user.id}`} fw={500}>
            {user.username}
          </Anchor>
        </Group>
      ),
    },
  ];
  if (config?.enable_teams !== false) {
    columns.push({
      header: t("profiles.team"),
      cell: (user) =>
        user.team !== null ? (
          <Anchor component={Link} to={`/team/${user.team}`}>
            {user.team_name}
          </Anchor>
        ) : (
          <Text c="dimmed" span>
            -
          </Text>
        ),
    });
  }
  return (
    <PagedList
      title={t("profiles.users_title")}
      label={t("profiles.users_title")}
      searchLabel={t("profiles.search")}
      search={search}
      onSearch={setSearch}
      query={query}
      emptyText={t("profiles.none")}
      columns={columns}
    />
  );
}
