import { type ComboboxItem, Select } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import "./texts.ts";

/** The server already searched: every option it sent is shown. */
const keepAll = ({ options }: { options: ComboboxItem[] | unknown[] }) => options as ComboboxItem[];

export interface PickedTeam {
  id: number;
  name: string;
}

/**
 * A team picked by name: staff type part of it and choose from the teams the server finds (hidden
 * ones included for staff), never a numeric id. Clearing the field picks no team.
 */
export function TeamPicker({ label, description, descriptionBelow, value, onChange, error, testId }: { label: string; description?: string; descriptionBelow?: boolean; value: PickedTeam | null; onChange(team: PickedTeam | null): void; error?: string; testId?: string }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [search, setSearch] = useState(value?.name ?? "");
  const [term] = useDebouncedValue(search.trim(), 250);
  // The search box shows the picked team's name; typing something else searches for it.
  const searching = term !== "" && term !== value?.name ? term : undefined;
  const teams = useQuery(trpc.teams.list.queryOptions({ limit: 20, ...(searching && { search: searching }) }));
  const results = teams.data?.results;
  const options = useMemo(() => {
    const found = (results ?? []).map((r) => ({ value: String(r.id), label: r.name }));
    return value && !found.some((o) => o.value === String(value.id)) ? [{ value: String(value.id), label: value.name }, ...found] : found;
  }, [results, value]);
  return (
    <Select
      label={label}
      description={description}
      {...(descriptionBelow && { inputWrapperOrder: ["label", "input", "description", "error"] as ("label" | "input" | "description" | "error")[] })}
      placeholder={t("team_picker.placeholder")}
      data={options}
      value={value ? String(value.id) : null}
      onChange={(id, option) => onChange(id === null ? null : { id: Number(id), name: option?.label ?? "" })}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      filter={keepAll}
      nothingFoundMessage={teams.isFetching ? t("team_picker.searching") : t("admin_ui.no_results")}
      comboboxProps={{ withinPortal: true }}
      error={error}
      data-testid={testId}
    />
  );
}
