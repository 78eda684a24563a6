import { Anchor, Badge } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { nextOffset, PAGE_SIZE, PagedList, useSearch } from "./PagedList.tsx";

/** /teams: every visible team by name, with its member count. */
export function TeamsListPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { search, setSearch, term } = useSearch();
  const query = useInfiniteQuery(
    trpc.teams.list.infiniteQueryOptions({ limit: PAGE_SIZE, ...(term && { search: term }) }, { getNextPageParam: nextOffset, initialCursor: 0 }),
  );
  return (
    <PagedList
      title={t("teams.title")}
      label={t("teams.title")}
      searchLabel={t("teams.search")}
      search={search}
      onSearch={setSearch}
      query={query}
      emptyText={t("teams.none")}
      columns={[
        {
          header: t("teams.team"),
          cell: (team) => (
            <Anchor component={Link} to={`/team/${team.id}`} fw={500}>
              {team.name}
            </Anchor>
          ),
        },
        {
          header: t("teams.members"),
          align: "right",
          width: 140,
          cell: (team) => (
            <Badge variant="light" color="gray" radius="sm">
              {team.members}
            </Badge>
          ),
        },
      ]}
    />
  );
}
