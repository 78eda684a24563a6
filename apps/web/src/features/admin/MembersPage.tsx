import { Badge, Button, Card, Checkbox, Group, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Title } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useRevealOnOpen } from "./SearchResults.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { ServerFormBox, useServerForm } from "../../lib/forms.tsx";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { ImpersonateButton } from "../auth/ImpersonateButton.tsx";
import { AdminPage, QueryState } from "./AdminPage.tsx";
import { ConfirmButton } from "./ConfirmButton.tsx";
import { changedFields, useEditorAction } from "./editor-actions.ts";
import { type PickedTeam, TeamPicker } from "./TeamPicker.tsx";
import type { AdminMember, SignInFailures } from "./types.ts";
import { SEARCH_LIMIT, SearchBox, SearchResults, useAdminSearch } from "./SearchResults.tsx";
import "./texts.ts";

const FLAGS = ["is_staff", "is_active", "is_visible", "email_verified", "has_team"] as const;
type Flag = (typeof FLAGS)[number];

/** /admin/members: find a member by username or email, then edit, move, delete or impersonate them. */
export function MembersPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { config } = useAppData();
  const { search, setSearch, term } = useAdminSearch();
  const [flags, setFlags] = useState<Partial<Record<Flag, boolean>>>({});
  const [selected, setSelected] = useState<number | null>(null);
  const advanced = config?.experiments?.advSearch === true;
  const results = useQuery(trpc.users.list.queryOptions({ search: term || undefined, limit: SEARCH_LIMIT, ...(advanced ? flags : {}) }));
  const ids = results.data?.results.map((u) => u.id) ?? [];
  const failures = useQuery({ ...trpc.users.signInFailures.queryOptions({ ids }), enabled: ids.length > 0 });
  const failuresOf = new Map(failures.data?.map((f) => [f.user, f]));

  return (
    <AdminPage title={t("admin.members")} intro={t("members_admin.intro")}>
      <SearchBox label={t("members_admin.search")} value={search} onChange={setSearch} />
      {advanced && <AdvancedSearch flags={flags} onChange={setFlags} />}
      <SearchResults
        query={results}
        selected={selected}
        onOpen={(u) => setSelected(u.id)}
        label={(u) => u.username}
        minWidth={860}
        columns={[
          { header: t("members_admin.username"), cell: (u) => u.username },
          { header: t("members_admin.email"), cell: (u) => <Email address={u.email} /> },
          { header: t("members_admin.team"), cell: (u) => u.team_name ?? "—" },
          {
            header: t("members_admin.points"),
            cell: (u) => (
              <Text size="sm" ff="monospace">
                {u.points}
              </Text>
            ),
          },
          {
            header: t("members_admin.verified"),
            cell: (u) =>
              u.email_verified ? (
                <Badge size="sm" variant="light" color="green">
                  {t("members_admin.yes")}
                </Badge>
              ) : (
                <Badge size="sm" variant="light" color="gray">
                  {t("members_admin.no")}
                </Badge>
              ),
          },
          {
            header: t("members_admin.joined"),
            cell: (u) => (
              <Text size="sm" style={{ whiteSpace: "nowrap" }} title={new Date(u.date_joined).toLocaleString()}>
                {new Date(u.date_joined).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" })}
              </Text>
            ),
          },
          { header: t("members_admin.failures"), cell: (u) => <FailuresBadge failures={failuresOf.get(u.id)} /> },
          {
            header: t("members_admin.flags"),
            cell: (u) =>
              !u.is_staff && u.is_active !== false && u.is_visible !== false ? (
                "—"
              ) : (
              <Group gap={4}>
                {u.is_staff && <Badge size="sm" variant="light">{t("members_admin.is_staff")}</Badge>}
                {u.is_active === false && (
                  <Badge size="sm" variant="light" color="red">
                    {t("members_admin.inactive")}
                  </Badge>
                )}
                {u.is_visible === false && (
                  <Badge size="sm" variant="light" color="gray">
                    {t("members_admin.hidden")}
                  </Badge>
                )}
              </Group>
            ),
          },
        ]}
      />
      {selected !== null && <MemberEditor key={selected} id={selected} onClose={() => setSelected(null)} />}
    </AdminPage>
  );
}

/** What the failures come to in one line: counts, when and from where the last one came. */
function failuresDetail(t: ReturnType<typeof useTranslation>["t"], f: SignInFailures): string {
  return t("members_admin.failures_detail", {
    passwords: f.passwords,
    codes: f.codes,
    date: new Date(f.last_at).toLocaleString(),
    ip: f.last_ip ?? t("members_admin.failures_unknown_ip"),
  });
}

/** Wrong passwords and codes given for a member's account, as a badge whose title tells the rest. */
function FailuresBadge({ failures }: { failures: SignInFailures | undefined }) {
  const { t } = useTranslation();
  if (!failures) return "—";
  return (
    <Badge size="sm" variant="light" color="orange" title={failuresDetail(t, failures)} data-testid="sign-in-failures">
      {t("members_admin.failures_badge", { count: failures.passwords + failures.codes })}
    </Badge>
  );
}

/** The member editor's line on failed sign-ins (or that there were none). */
function FailuresLine({ id }: { id: number }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const failures = useQuery(trpc.users.signInFailures.queryOptions({ ids: [id] }));
  const found = failures.data?.[0];
  if (!failures.data) return null;
  return (
    <Text size="sm" c={found ? undefined : "dimmed"} data-testid="member-sign-in-failures">
      {found ? `${t("members_admin.failures")}: ${failuresDetail(t, found)}` : t("members_admin.failures_none")}
    </Text>
  );
}

/** An email address that wraps at its '@' (and only mid-word when one part alone is too long). */
function Email({ address }: { address: string | null | undefined }) {
  if (!address) return "—";
  const at = address.lastIndexOf("@");
  return (
    <Text size="sm" style={{ overflowWrap: "anywhere" }}>
      {at > 0 ? (
        <>
          {address.slice(0, at)}
          <wbr />
          {address.slice(at)}
        </>
      ) : (
        address
      )}
    </Text>
  );
}

/** The advSearch experiment: filter by account flags; each chip cycles any / yes / no. */
function AdvancedSearch({ flags, onChange }: { flags: Partial<Record<Flag, boolean>>; onChange: (f: Partial<Record<Flag, boolean>>) => void }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="sm" data-testid="advanced-search">
      <Text size="sm" fw={600} mb="xs">
        {t("members_admin.advanced")}
      </Text>
      <Group gap="md">
        {FLAGS.map((flag) => (
          <Checkbox
            key={flag}
            label={t(`members_admin.filter_${flag}`)}
            indeterminate={flags[flag] === undefined}
            checked={flags[flag] === true}
            onChange={() => {
              const next = flags[flag] === undefined ? true : flags[flag] ? false : undefined;
              const { [flag]: _old, ...rest } = flags;
              onChange(next === undefined ? rest : { ...rest, [flag]: next });
            }}
            description={flags[flag] === undefined ? t("members_admin.any") : flags[flag] ? t("members_admin.yes") : t("members_admin.no")}
          />
        ))}
      </Group>
    </Card>
  );
}

const TEXT_FIELDS = ["username", "email", "discord", "discordid", "twitter", "reddit"] as const;
const SWITCHES = ["is_active", "is_visible", "is_staff", "is_verified", "state_actor"] as const;

function MemberEditor({ id, onClose }: { id: number; onClose: () => void }) {
  const scrollHere = useRevealOnOpen<HTMLDivElement>();
  const trpc = useTRPC();
  const member = useQuery(trpc.users.get.queryOptions({ id }));
  return (
    <Card ref={scrollHere} withBorder radius="md" padding="lg" component="section" aria-labelledby="member-editor-title" data-testid="member-editor">
      <QueryState query={member}>{(m) => <MemberForm member={m} onClose={onClose} />}</QueryState>
    </Card>
  );
}


function MemberForm({ member, onClose }: { member: AdminMember; onClose: () => void }) {
  const { t } = useTranslation();
  const { me } = useAppData();
  const client = useTRPCClient();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.users.pathKey() });
  const initial = {
    username: member.username,
    email: member.email ?? "",
    bio: member.bio,
    discord: member.discord,
    discordid: member.discordid,
    twitter: member.twitter,
    reddit: member.reddit,
    team: member.team === null ? null : ({ id: member.team, name: member.team_name ?? `#${member.team}` } as PickedTeam | null),
    is_active: member.is_active ?? true,
    is_visible: member.is_visible ?? true,
    is_staff: member.is_staff,
    is_verified: member.is_verified,
    state_actor: member.state_actor,
  };
  const server = useServerForm({
    initialValues: initial,
    submit: (values) => {
      const { team: _team, ...changed } = changedFields(initial, values);
      const patch = { ...changed, ...(values.team?.id !== initial.team?.id && { team: values.team?.id ?? null }) };
      return client.users.staffUpdate.mutate({ id: member.id, patch });
    },
    success: t("members_admin.modified"),
    onSuccess: refresh,
  });
  const unteam = useEditorAction(() => client.users.staffUpdate.mutate({ id: member.id, patch: { team: null } }), () => t("members_admin.removed_from_team"), refresh);
  const remove = useEditorAction(
    () => client.users.staffDelete.mutate({ id: member.id }),
    () => t("members_admin.deleted"),
    async () => {
      onClose();
      await refresh();
    },
  );
  const { form } = server;
  // Taken out of their team (or moved) by another action: the picker follows.
  useEffect(() => {
    form.setFieldValue("team", initial.team);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the stored team changes
  }, [member.team]);

  return (
    <ServerFormBox server={server}>
      <Stack>
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={2} size="h3" id="member-editor-title">
              {member.username}
            </Title>
            <Text size="sm" c="dimmed">
              {t("members_admin.summary", { id: member.id, points: member.points, leaderboard: member.leaderboard_points, date: new Date(member.date_joined).toLocaleDateString() })}
            </Text>
            <Group gap={4} mt={4}>
              <Badge variant="light" color={member.email_verified ? "green" : "gray"}>
                {member.email_verified ? t("members_admin.email_verified") : t("members_admin.email_unverified")}
              </Badge>
              <Badge variant="light">{t("members_admin.solves", { count: member.solves.length })}</Badge>
            </Group>
            <FailuresLine id={member.id} />
          </div>
          <Group gap="xs">
            {me?.id === member.id ? (
              <Text size="sm" c="dimmed">
                {t("errors.cannot_impersonate_self")}
              </Text>
            ) : (
              <ImpersonateButton user={member} size="sm" />
            )}
            {member.team !== null && (
              <ConfirmButton
                variant="light"
                color="orange"
                title={t("members_admin.unteam_title", { username: member.username, team: member.team_name })}
                confirm={t("members_admin.unteam")}
                onConfirm={() => unteam.mutateAsync().catch(() => undefined)}
                loading={unteam.isPending}
              >
                {t("members_admin.unteam")}
              </ConfirmButton>
            )}
            <ConfirmButton
              variant="light"
              title={t("members_admin.delete_title", { username: member.username })}
              body={t("members_admin.delete_body")}
              confirm={t("members_admin.delete")}
              onConfirm={() => remove.mutateAsync().catch(() => undefined)}
              loading={remove.isPending}
            >
              {t("members_admin.delete")}
            </ConfirmButton>
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {TEXT_FIELDS.map((field) => (
            <TextInput key={field} label={t(`members_admin.${field}`)} {...form.getInputProps(field)} />
          ))}
          <TeamPicker label={t("members_admin.team")} description={t("members_admin.team_help")} value={form.values.team} onChange={(team) => form.setFieldValue("team", team)} error={form.errors.team as string | undefined} testId="member-team" />
        </SimpleGrid>
        <Textarea label={t("members_admin.bio")} autosize minRows={2} maxLength={400} {...form.getInputProps("bio")} />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {SWITCHES.map((flag) => (
            <Switch key={flag} label={t(`members_admin.${flag}`)} description={t(`members_admin.${flag}_help`)} {...form.getInputProps(flag, { type: "checkbox" })} />
          ))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t("admin_ui.close")}
          </Button>
          <Button type="submit" loading={server.pending} disabled={!form.isDirty()}>
            {t("members_admin.save")}
          </Button>
        </Group>
      </Stack>
    </ServerFormBox>
  );
}
