import { formatFileSize } from "@flagship/shared";
import { Alert, Anchor, Badge, Button, Card, Divider, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useRef, useState } from "react";
import { deferred } from "../../lib/deferred.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { Markdown } from "../../lib/Markdown.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { useStaffView } from "../../shell/viewAsPlayer.ts";
import { useEventFlags } from "../countdown/useCountdown.ts";
import { DifficultyBadge } from "./DifficultyBadge.tsx";
import { DialogTitle, FlagForm, type Solved } from "./FlagForm.tsx";
import { HintList } from "./HintList.tsx";
import { pendingRelease, ScheduledBadge, useReleaseText } from "./ScheduledBadge.tsx";
import { LockIcon } from "./icons.tsx";
import { Rating } from "./Rating.tsx";
import type { ChallengeView } from "./types.ts";
import { UnlockHint } from "./UnlockHint.tsx";

// The challenge-server card loads only for a challenge that has a server (or for staff, who can
// add one): a challenge without one carries neither it nor its tooltip's positioning library.
// The solved panel (its feedback form) loads once the team has solved the challenge.
const SolvedPanel = deferred("features/challenges/SolvedPanel", () => import("./SolvedPanel.tsx").then((m) => m.SolvedPanel), <Loader size="sm" />);

// The dialog after a correct flag loads once the page is drawn, before a flag can be checked.
const SolvedDialog = deferred("features/challenges/SolvedDialog", () => import("./SolvedDialog.tsx").then((m) => m.SolvedDialog), null);

const EventOverFlags = deferred("features/challenges/EventOverFlags", () => import("./EventOverFlags.tsx").then((m) => m.EventOverFlags), null);

// With the staff tools for staff (moderation/ChallengePanels.tsx): neither is in the page's first load.
const InstancePanel = deferred("features/moderation/ChallengePanels", () => import("../moderation/ChallengePanels.tsx").then((m) => m.ChallengePanels), <Loader size="sm" />);

/** Whether the challenge view shows the challenge-server card, as InstancePanel decides. */
function showsInstancePanel(challenge: ChallengeView, isStaff: boolean): boolean {
  const name = challenge.challenge_metadata.cserv_name;
  return isStaff || (typeof name === "string" && name !== "");
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {children}
      </Text>
    </Stack>
  );
}

/**
 * Everything about one challenge, shared by the challenge page and the tile grid's modal. In a
 * dialog (`inDialog`), the challenge's name is the heading that names the dialog.
 */
export function ChallengeBody({ challenge, inDialog = false }: { challenge: ChallengeView; inDialog?: boolean }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { me, config } = useAppData();
  // Kept here, not in the form: the solve refreshes the listing, which swaps the form for the
  // solved panel while the dialog must stay open.
  const [solved, setSolved] = useState<Solved | null>(null);
  // After the success dialog the flag form has made way for the solved panel: the focus goes there,
  // once the dialog has tried to give it back to the flag field that is gone (Mantine waits 10 ms).
  const answer = useRef<HTMLDivElement>(null);
  const closeSolved = () => {
    setSolved(null);
    window.setTimeout(() => {
      const active = document.activeElement;
      if (active && active !== document.body && active.isConnected && !active.closest("[role=dialog]")) return;
      answer.current?.querySelector<HTMLElement>("[data-testid=already-solved]")?.focus();
    }, 30);
  };
  const staff = useStaffView();
  const hasTeam = me?.teamId !== null && me?.teamId !== undefined;
  // After the end the flag form goes, unless flags are still taken (they no longer score): said either way.
  const ended = useEventFlags().flags?.competition_end === true;
  const lateFlags = config?.enable_flag_submission_after_competition === true;
  const locked = !challenge.unlocked && !challenge.solved;
  const release = staff ? pendingRelease(challenge) : null;
  const releaseText = useReleaseText();
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          {inDialog ? (
            <DialogTitle style={{ wordBreak: "break-word" }}>{challenge.name}</DialogTitle>
          ) : (
            <Title order={1} size="h2" style={{ wordBreak: "break-word" }}>
              {challenge.name}
            </Title>
          )}
          <Badge size="xl" variant="light" style={{ flexShrink: 0 }} data-testid="challenge-points">
            {t("challenges.points", { points: challenge.current_score })}
          </Badge>
        </Group>
        <Group gap="xs">
          <DifficultyBadge score={challenge.current_score} difficulty={challenge.challenge_metadata.difficulty} />
          {challenge.solved && <Badge color="green" variant="light" leftSection={<span aria-hidden>✓</span>}>{t("challenges.solved")}</Badge>}
          {locked && (
            <Badge color="gray" variant="light" leftSection={<LockIcon size={12} />} data-testid="locked-badge">
              {t("challenges.locked")}
            </Badge>
          )}
          {challenge.hidden && (
            <Badge color="grape" variant="light" data-testid="hidden-badge">
              {t("challenges.hidden")}
            </Badge>
          )}
          {staff && <ScheduledBadge challenge={challenge} />}
          {challenge.tags.map((tag) => (
            <Badge key={`${tag.type}:${tag.text}`} variant="outline" color="gray">
              {tag.text}
            </Badge>
          ))}
        </Group>
      </Stack>

      {staff && (locked || challenge.hidden || release !== null) && (
        <Stack gap={2} data-testid="staff-visibility-note">
          {challenge.hidden && (
            <Text size="sm" c="dimmed">
              {t("challenges.staff_hidden_note")}
            </Text>
          )}
          {release !== null && (
            <Text size="sm" c="dimmed">
              {t("challenges.staff_scheduled_note", { time: releaseText(release) })}
            </Text>
          )}
          {locked && (
            <>
              <Text size="sm" c="dimmed">
                {t("challenges.staff_locked_note")}
              </Text>
              <UnlockHint expression={challenge.unlock_requirements} size="sm" c="dimmed" />
            </>
          )}
        </Stack>
      )}

      {challenge.maintenance && (
        <Alert color="orange" variant="light" role="status">
          {t("challenges.maintenance")}
        </Alert>
      )}

      <Card withBorder padding="sm">
        <Group gap="xl" wrap="wrap">
          {challenge.author && <Fact label={t("challenges.author")}>{challenge.author}</Fact>}
          <Fact label={t("challenges.solve_count")}>{challenge.solve_count}</Fact>
          <Fact label={t("challenges.first_blood")}>{challenge.first_blood ?? t("challenges.first_blood_none")}</Fact>
          <Stack gap={2}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t("challenges.sort_rating")}
            </Text>
            <Rating challenge={challenge} canVote={challenge.solved} />
          </Stack>
        </Group>
      </Card>

      <Markdown suspend={!inDialog}>{challenge.description}</Markdown>

      {challenge.files.length > 0 && (
        <Stack gap="xs">
          <Text fw={600}>{t("challenges.files")}</Text>
          <Group gap="sm">
            {challenge.files.map((file) => (
              <Button key={file.id} component="a" href={file.url} target="_blank" rel="noopener noreferrer" variant="default" size="sm" rightSection={<Text size="xs" c="dimmed">{formatFileSize(file.size)}</Text>}>
                {file.name}
              </Button>
            ))}
          </Group>
        </Stack>
      )}

      {showsInstancePanel(challenge, me?.isStaff === true) && <InstancePanel challenge={challenge} />}

      <HintList challenge={challenge} canUse={hasTeam && !challenge.solved} />

      <Divider />
      {ended && !challenge.solved && <EventOverFlags lateFlags={lateFlags} />}
      <div ref={answer}>
        {challenge.solved ? (
          <SolvedPanel challenge={challenge} />
        ) : ended && !lateFlags ? null : hasTeam ? (
          <FlagForm
            challenge={challenge}
            onSolved={(result) => {
              setSolved(result);
              void queryClient.invalidateQueries({ queryKey: trpc.challenges.categories.queryKey() });
            }}
          />
        ) : staff ? (
          <Text size="sm" c="dimmed" data-testid="staff-no-team">
            {t("challenges.staff_no_team")}
          </Text>
        ) : (
          <Alert color="yellow" variant="light" data-testid="team-warning">
            {t("errors.team_required")}{" "}
            <Anchor component={Link} to="/welcome">
              {t("challenges.team_needed_action")}
            </Anchor>
          </Alert>
        )}
      </div>
      <SolvedDialog challenge={challenge} solved={solved} onClose={closeSolved} />
    </Stack>
  );
}
