import { Alert, Anchor, Button, Card, PasswordInput, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { LIMITS } from "@flagship/shared";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, Navigate, useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import "../groups/texts.ts";
import { errorText, serverFieldErrors } from "./forms.ts";

/** Client checks of the create form, with the specs' messages. */
export function validateCreate(name: string, secret: string): Record<string, string> {
  const errors: Record<string, string> = {};
  if (name.trim() === "") errors.name = "teams.name_missing";
  if (secret.length < LIMITS.teamSecretMin) errors.password = "teams.secret_short";
  return errors;
}

/** /team/create: name and secret; the creator becomes captain. */
export function CreateTeamPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { me } = useAppData();
  const [name, setName] = useState("");
  const [secret, setSecret] = useState("");
  const [group, setGroup] = useState<string | null>(null);
  // The divisions a team may pick for itself; the picker shows only when there are some.
  const groups = useQuery(trpc.teams.groups.list.queryOptions(undefined, { staleTime: 60_000 }));
  const offered = (groups.data?.results ?? []).filter((g) => g.is_self_assignable);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useMutation(
    trpc.teams.create.mutationOptions({
      onSuccess: async (team) => {
        notifications.show({ color: "green", message: t("teams.created") });
        await queryClient.invalidateQueries();
        await navigate({ to: "/team/$team", params: { team: String(team.id) } });
      },
      onError: (error) => setErrors(serverFieldErrors(error)),
    }),
  );
  if (me?.teamId != null && !create.isPending && !create.isSuccess) return <Navigate to="/team/$team" params={{ team: "me" }} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateCreate(name, secret);
    setErrors(Object.fromEntries(Object.entries(found).map(([k, v]) => [k, t(v)])));
    if (Object.keys(found).length === 0) create.mutate({ name: name.trim(), password: secret, leaderboard_group: group === null ? null : Number(group) });
  };
  const formError = create.isError && Object.keys(serverFieldErrors(create.error)).length === 0 ? errorText(create.error) : null;

  return (
    <Stack maw={480} mx="auto" py="lg">
      <Card withBorder padding="xl" radius="md" component="form" onSubmit={submit} noValidate>
        <Stack gap="md">
          <div>
            <Title order={1} size="h2">
              {t("teams.create_title")}
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              {t("teams.create_intro")}
            </Text>
          </div>
          {formError && (
            <Alert color="red" role="alert">
              {formError}
            </Alert>
          )}
          <TextInput
            label={t("teams.name")}
            value={name}
            onChange={(e) => setName(e.currentTarget.value.slice(0, LIMITS.teamName))}
            error={errors.name}
            maxLength={LIMITS.teamName}
            description={`${name.length}/${LIMITS.teamName}`}
            required
            data-autofocus
          />
          <PasswordInput
            label={t("teams.secret")}
            description={t("teams.secret_hint")}
            value={secret}
            onChange={(e) => setSecret(e.currentTarget.value)}
            error={errors.password}
            required
          />
          {offered.length > 0 && (
            <Select
              label={t("groups.picker")}
              placeholder={t("groups.none")}
              data={offered.map((g) => ({ value: String(g.id), label: g.name }))}
              value={group}
              onChange={setGroup}
              error={errors.leaderboard_group}
              clearable
              allowDeselect
            />
          )}
          <Button type="submit" loading={create.isPending} fullWidth>
            {t("teams.create")}
          </Button>
          <Text size="sm" ta="center" c="dimmed">
            <Anchor component={Link} to="/team/join">
              {t("teams.join_title")}
            </Anchor>
          </Text>
        </Stack>
      </Card>
    </Stack>
  );
}
