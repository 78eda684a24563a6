import { formatUnlockIn } from "@flagship/shared";
import { Card, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { LockIcon } from "./icons.tsx";
import type { ReactNode } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useCountdown, useEventFlags } from "../countdown/useCountdown.ts";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";
import { useAppData } from "../../shell/useAppData.ts";
import { useStaffView } from "../../shell/viewAsPlayer.ts";
import { deferred } from "../../lib/deferred.tsx";

const LockOpens = deferred("features/challenges/LockOpens", () => import("./LockOpens.tsx").then((m) => m.LockOpens), null);

/**
 * 'Site Locked!' with the time left until the gate opens, and when that is: in the player's own
 * time and, when it differs, in the event's time zone.
 */
export function LockPage({ remaining, at }: { remaining: number; at: number }) {
  const { t } = useTranslation();
  return (
    <Stack align="center" my={80} gap="md" ta="center" data-testid="lock-page">
      <ThemeIcon size={88} radius="xl" variant="light" color="gray">
        <LockIcon size={48} />
      </ThemeIcon>
      <Title order={1}>{t("challenges.site_locked")}</Title>
      <Text c="dimmed">{t("challenges.site_locked_body")}</Text>
      <Card withBorder padding="md" radius="md">
        <Text fw={600} ff="monospace" role="timer">
          {formatUnlockIn(remaining)}
        </Text>
      </Card>
      <LockOpens at={at} />
    </Stack>
  );
}

/**
 * The countdown gate of the campaign routes: until the start, players see the lock page; staff
 * pass (unless previewing as a player). After the end the server decides (viewing after the
 * competition may be allowed).
 */
export function EventGate({ children }: { children: ReactNode }) {
  const { loading } = useAppData();
  const staffView = useStaffView();
  // The gate reads whether the event has started, not the seconds: only the lock page ticks.
  const { flags, failed } = useEventFlags();
  // Without the countdown the page still renders: the server enforces the gate on every call.
  if (failed) return <>{children}</>;
  if (loading || !flags) return <LoadingScreen />;
  if (!staffView && !flags.countdown_timestamp) return <LockUntilStart>{children}</LockUntilStart>;
  return <>{children}</>;
}

/** The lock page with the time left until the start (the page itself once the countdown has no start ahead). */
function LockUntilStart({ children }: { children?: ReactNode }) {
  const { target } = useCountdown();
  if (target?.kind === "start") return <LockPage remaining={target.remaining} at={target.at} />;
  return <>{children}</>;
}

/** The campaign screens' answer to a refused listing: locked before the start, ended after. */
export function ChallengesUnavailable() {
  const { t } = useTranslation();
  const { target, flags } = useCountdown();
  if (flags && !flags.countdown_timestamp && target?.kind === "start") return <LockPage remaining={target.remaining} at={target.at} />;
  return (
    <Stack align="center" my={80} gap="sm" ta="center">
      <Title order={2}>{t("challenges.ended")}</Title>
      <Text c="dimmed">{t("challenges.ended_body")}</Text>
    </Stack>
  );
}
