import { Button, Group, TextInput } from "@mantine/core";
import { useTranslation } from "../../lib/i18n.ts";
import { type AnyChallengeView, isFull } from "./types.ts";

/** Tag counts over the challenges a player can read (locked stubs carry no tags). */
export function tagCounts(challenges: AnyChallengeView[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const c of challenges) if (isFull(c)) for (const tag of c.tags) counts.set(tag.text, (counts.get(tag.text) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export function matchesFilter(challenge: AnyChallengeView, search: string, tag: string | null): boolean {
  if (!isFull(challenge)) return search.trim() === "" && tag === null;
  if (tag !== null && !challenge.tags.some((t) => t.text === tag)) return false;
  const needle = search.trim().toLowerCase();
  if (needle === "") return true;
  return [challenge.name, challenge.description, challenge.author, ...challenge.tags.map((t) => t.text)].some((text) => text.toLowerCase().includes(needle));
}

/** A search box and tag filter buttons with counts. */
export function TagFilter(props: { challenges: AnyChallengeView[]; search: string; onSearch(value: string): void; tag: string | null; onTag(value: string | null): void }) {
  const { t } = useTranslation();
  const tags = tagCounts(props.challenges);
  return (
    <Group gap="xs" wrap="wrap">
      <TextInput
        placeholder={t("challenges.search")}
        aria-label={t("challenges.search")}
        value={props.search}
        onChange={(e) => props.onSearch(e.currentTarget.value)}
        w={{ base: "100%", xs: 240 }}
      />
      {tags.length > 0 && (
        <Button size="xs" radius="xl" variant={props.tag === null ? "filled" : "default"} onClick={() => props.onTag(null)}>
          {t("challenges.all_tags")} ({props.challenges.length})
        </Button>
      )}
      {tags.map(([text, count]) => (
        <Button key={text} size="xs" radius="xl" variant={props.tag === text ? "filled" : "default"} onClick={() => props.onTag(props.tag === text ? null : text)}>
          {text} ({count})
        </Button>
      ))}
    </Group>
  );
}
