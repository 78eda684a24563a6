import { Alert, Button, Code, type ComboboxItem, CopyButton, Group, Select, Stack, Text } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import "./texts.ts";
import "../admin/texts.ts";

/** The server already searched: every option it sent is shown. */
const keepAll = ({ options }: { options: ComboboxItem[] | unknown[] }) => options as ComboboxItem[];

/** In the editor of a dynamic challenge: staff pick a team and see that team's own flag. */
export function TeamFlagLookup({ challengeId }: { challengeId: number }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const [term] = useDebouncedValue(search.trim(), 250);
  const [team, setTeam] = useState<string | null>(null);
  const [shown, setShown] = useState<number | null>(null);
  const teams = useQuery(trpc.teams.list.queryOptions({ limit: 20, ...(term && { search: term }) }));
  const flag = useQuery(trpc.challenges.teamFlag.queryOptions({ challenge: challengeId, team: shown ?? 0 }, { enabled: shown !== null, retry: false }));
  const results = teams.data?.results;
  const options = useMemo(() => (results ?? []).map((r) => ({ value: String(r.id), label: r.name })), [results]);
  return (
    <Stack gap="xs" component="section" aria-label={t("sharing.lookup_title")}>
      <Text size="sm" fw={600}>
        {t("sharing.lookup_title")}
      </Text>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label={t("sharing.lookup_team")}
          placeholder={t("sharing.lookup_placeholder")}
          data={options}
          value={team}
          onChange={(value) => {
            setTeam(value);
            setShown(null);
          }}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          filter={keepAll}
          nothingFoundMessage={t("admin_ui.no_results")}
          comboboxProps={{ withinPortal: true }}
          w={{ base: "100%", sm: 260 }}
        />
        <Button variant="light" disabled={!team} loading={flag.isFetching} onClick={() => setShown(Number(team))}>
          {t("sharing.lookup_show")}
        </Button>
      </Group>
      {flag.data && shown !== null && (
        <Group gap="xs" wrap="wrap">
          <Code data-testid="team-flag" style={{ wordBreak: "break-all" }}>
            {flag.data.flag}
          </Code>
          <CopyButton value={flag.data.flag}>
            {({ copied, copy }) => (
              <Button size="compact-xs" variant="subtle" onClick={copy}>
                {copied ? t("generic.copied") : t("generic.copy")}
              </Button>
            )}
          </CopyButton>
        </Group>
      )}
      {flag.error && (
        <Alert color="red" variant="light" title={t("sharing.lookup_failed")}>
          {flag.error.message}
        </Alert>
      )}
    </Stack>
  );
}
