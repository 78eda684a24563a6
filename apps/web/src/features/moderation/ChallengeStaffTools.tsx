import { Alert, Button, Card, Checkbox, Group, SimpleGrid, Stack, TextInput, Title } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../../lib/i18n.ts";
import { ServerFormBox, useServerForm } from "../../lib/forms.tsx";
import { useTRPCClient } from "../../lib/trpc.ts";
import { type PickedTeam, TeamPicker } from "../admin/TeamPicker.tsx";
import { FormHeading, refreshRouters } from "./staff-forms.tsx";
import "./texts.ts";

/**
 * Staff tools on a challenge: try a flag with the checker teams face (nothing recorded), and mark
 * the challenge solved for a team whose right flag a broken checker refused.
 */
export function ChallengeStaffTools({ challengeId, challengeName }: { challengeId: number; challengeName: string }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="md" radius="md" data-testid="challenge-staff-tools">
      <Stack gap="md">
        <Title order={2} size="h4">
          {t("moderation.staff_tools")}
        </Title>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <TestFlag challengeId={challengeId} />
          <MarkSolved challengeId={challengeId} challengeName={challengeName} />
        </SimpleGrid>
      </Stack>
    </Card>
  );
}

function TestFlag({ challengeId }: { challengeId: number }) {
  const { t } = useTranslation();
  const client = useTRPCClient();
  const server = useServerForm({
    initialValues: { flag: "" },
    submit: (values) => client.moderation.testFlag.mutate({ challenge: challengeId, flag: values.flag }),
  });
  const answer = server.lastResult;
  return (
    <ServerFormBox server={server}>
      <Stack gap="xs">
        <FormHeading title={t("moderation.test_flag")} help={t("moderation.test_flag_help")} />
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <TextInput label={t("moderation.flag_to_test")} styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }} style={{ flex: 1 }} autoComplete="off" {...server.form.getInputProps("flag")} onChange={(e) => server.form.setFieldValue("flag", e.currentTarget.value)} />
          <Button type="submit" variant="default" loading={server.pending}>
            {t("moderation.test")}
          </Button>
        </Group>
        <div role="status" aria-live="polite">
          {answer && (
            <Alert color={answer.correct ? "green" : "red"} variant="light" data-testid="test-flag-result">
              {answer.correct ? t("moderation.test_right") : t("moderation.test_wrong")}
            </Alert>
          )}
        </div>
      </Stack>
    </ServerFormBox>
  );
}

function MarkSolved({ challengeId, challengeName }: { challengeId: number; challengeName: string }) {
  const { t } = useTranslation();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const server = useServerForm({
    initialValues: { team: null as PickedTeam | null, first_blood: false },
    validate: { team: (v) => (v ? null : t("moderation.search_team")) },
    submit: (values) => client.moderation.markSolved.mutate({ team: values.team!.id, challenge: challengeId, first_blood: values.first_blood }),
    // The name picked, not one looked up again: a search still loading must not leave it out.
    success: (_result, values) => t("moderation.marked", { team: values.team?.name ?? "", challenge: challengeName }),
    onSuccess: () => refreshRouters(queryClient, ["challenges", "leaderboard", "teams", "moderation"]),
  });
  return (
    <ServerFormBox server={server}>
      <Stack gap="xs">
        <FormHeading title={t("moderation.mark_solved")} help={t("moderation.mark_solved_help")} />
        <TeamPicker
          label={t("moderation.team_to_mark")}
          value={server.form.getValues().team}
          onChange={(team) => server.form.setFieldValue("team", team)}
          error={server.form.errors.team as string | undefined}
        />
        <Checkbox label={t("moderation.first_blood")} {...server.form.getInputProps("first_blood", { type: "checkbox" })} />
        <Button type="submit" loading={server.pending} w="fit-content">
          {t("moderation.mark")}
        </Button>
      </Stack>
    </ServerFormBox>
  );
}
