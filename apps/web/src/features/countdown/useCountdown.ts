import { countdownFlags, countdownTarget, TIMINGS } from "@flagship/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { useRenderNow } from "../../lib/render-clock.ts";
import { useTRPC } from "../../lib/trpc.ts";

/**
 * The event countdown against the server's clock: ticks every second, targets the start then the
 * end, and reloads what depends on the gates (categories, config) the moment one flips.
 */
export function useCountdown() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data, dataUpdatedAt, isError } = useQuery(trpc.stats.countdown.queryOptions(undefined, { staleTime: 60_000, refetchInterval: 300_000 }));
  const offset = useMemo(() => (data ? Date.parse(data.server_timestamp) / 1000 - dataUpdatedAt / 1000 : 0), [data, dataUpdatedAt]);
  const drawnAt = useRenderNow();
  const [now, setNow] = useState(() => drawnAt / 1000 + offset);
  const [zeroSince, setZeroSince] = useState<number | null>(null);

  useEffect(() => {
    setNow(Date.now() / 1000 + offset);
    const timer = setInterval(() => setNow(Date.now() / 1000 + offset), 1000);
    return () => clearInterval(timer);
  }, [offset]);

  const flags = data ? countdownFlags(data, now) : null;
  const key = flags ? `${flags.registration_open}${flags.countdown_timestamp}${flags.competition_end}` : "";
  const previous = useRef(key);
  useEffect(() => {
    if (previous.current && key && previous.current !== key) {
      setZeroSince(Date.now());
      void queryClient.invalidateQueries();
    }
    previous.current = key;
  }, [key, queryClient]);

  const target = data ? countdownTarget(data, Math.floor(now)) : null;
  const showLoading = zeroSince !== null && Date.now() - zeroSince >= TIMINGS.countdownZeroLoadingMs && Date.now() - zeroSince < 10_000;
  return { target, flags, showLoading, failed: isError && !data, now };
}
