import { Alert, Anchor, Button, Card, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { LIMITS } from "@flagship/shared";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, Navigate, useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { errorText, serverFieldErrors } from "./forms.ts";

/** /team/join: the team's name and secret. */
export function JoinTeamPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { me } = useAppData();
  const [name, setName] = useState("");
  const [secret, setSecret] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const join = useMutation(
    trpc.teams.join.mutationOptions({
      onSuccess: async (team) => {
        notifications.show({ color: "green", message: t("teams.joined", { team: team.name }) });
        await queryClient.invalidateQueries();
        await navigate({ to: "/team/$team", params: { team: String(team.id) } });
      },
      onError: (error) => setErrors(serverFieldErrors(error)),
    }),
  );
  if (me?.teamId != null && !join.isPending && !join.isSuccess) return <Navigate to="/team/$team" params={{ team: "me" }} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (name.trim() === "") found.name = t("teams.name_missing");
    if (secret === "") found.password = t("generic.required");
    setErrors(found);
    if (Object.keys(found).length === 0) join.mutate({ name: name.trim(), password: secret });
  };
  const formError = join.isError && Object.keys(serverFieldErrors(join.error)).length === 0 ? errorText(join.error) : null;

  return (
    <Stack maw={480} mx="auto" py="lg">
      <Card withBorder padding="xl" radius="md" component="form" onSubmit={submit} noValidate>
        <Stack gap="md">
          <div>
            <Title order={1} size="h2">
              {t("teams.join_title")}
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              {t("teams.join_intro")}
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
            required
          />
          <PasswordInput label={t("teams.secret")} value={secret} onChange={(e) => setSecret(e.currentTarget.value)} error={errors.password} required />
          <Button type="submit" loading={join.isPending} fullWidth>
            {t("teams.join")}
          </Button>
          <Text size="sm" ta="center" c="dimmed">
            <Anchor component={Link} to="/team/create">
              {t("teams.create_title")}
            </Anchor>
          </Text>
        </Stack>
      </Card>
    </Stack>
  );
}
