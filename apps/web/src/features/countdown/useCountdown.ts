import { countdownFlags, countdownShownAt, countdownTarget, TIMINGS } from "@flagship/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { useClock } from "../../lib/render-clock.ts";
import { useTRPC } from "../../lib/trpc.ts";

/** The event's times and how far the server's clock is from this browser's (seconds). */
export function useEventTimes() {
  const trpc = useTRPC();
  const { data, dataUpdatedAt, isError } = useQuery(trpc.stats.countdown.queryOptions(undefined, { staleTime: 60_000, refetchInterval: 300_000 }));
  const offset = useMemo(() => (data ? Date.parse(data.server_timestamp) / 1000 - dataUpdatedAt / 1000 : 0), [data, dataUpdatedAt]);
  return { data, offset, isError };
}

type Flags = ReturnType<typeof countdownFlags>;

/** The flags as one string ("101"), which changes only when one of them flips. */
function flagsKey(flags: Flags): string {
  return `${+flags.registration_open}${+flags.countdown_timestamp}${+flags.competition_end}`;
}

/**
 * The event's gates (registration open, started, ended) against the server's clock. A component
 * reading them re-renders when one flips, not every second: pages that only ask "has it ended?"
 * are not drawn again with each tick of the countdown.
 */
export function useEventFlags(): { flags: Flags | null; key: string; failed: boolean } {
  return useFlagsOf(useEventTimes());
}

function useFlagsOf({ data, offset, isError }: ReturnType<typeof useEventTimes>): { flags: Flags | null; key: string; failed: boolean } {
  const key = useClock((ms) => (data ? flagsKey(countdownFlags(data, ms / 1000 + offset)) : ""));
  const flags = useMemo(() => (key ? { registration_open: key[0] === "1", countdown_timestamp: key[1] === "1", competition_end: key[2] === "1" } : null), [key]);
  return { flags, key, failed: isError && !data };
}

/**
 * The event countdown against the server's clock: targets the start then the end, and reloads what
 * depends on the gates (categories, config) the moment one flips. Only what shows the time left
 * reads it (the header's countdown, the lock page, the projector's clock). It is drawn again every
 * second; with `step: "words"`, as often as the countdown's words change (every minute until the
 * last hour): the header's countdown, which shows no seconds until then.
 */
export function useCountdown({ step = "second" }: { step?: "second" | "words" } = {}) {
  const queryClient = useQueryClient();
  const times = useEventTimes();
  const { data, offset } = times;
  const { flags, key, failed } = useFlagsOf(times);
  const now = useClock((ms) => {
    const seconds = Math.floor(ms / 1000 + offset);
    return step === "words" && data ? countdownShownAt(data, seconds) : seconds;
  });
  // "Loading…" in place of the countdown from a moment after a gate flips until the page has
  // been read again: shown and taken away by timers, as the countdown may not be drawn meanwhile.
  const [showLoading, setShowLoading] = useState(false);

  const previous = useRef(key);
  useEffect(() => {
    const flipped = previous.current && key && previous.current !== key;
    previous.current = key;
    if (!flipped) return;
    void queryClient.invalidateQueries();
    const show = setTimeout(() => setShowLoading(true), TIMINGS.countdownZeroLoadingMs);
    const hide = setTimeout(() => setShowLoading(false), 10_000);
    return () => {
      clearTimeout(show);
      clearTimeout(hide);
      setShowLoading(false);
    };
  }, [key, queryClient]);

  const target = data ? countdownTarget(data, now) : null;
  return { target, flags, showLoading, failed };
}
