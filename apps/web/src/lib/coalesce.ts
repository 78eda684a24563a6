/**
 * Runs `run` at most once per `intervalMs`: the first call after a quiet spell runs at once, and
 * every call within the interval after a run folds into one more run at its end. A burst of
 * events (hundreds of wrong flags a second at an event's start) then costs each browser one
 * refetch a second rather than one per event, and the last event is never left unshown.
 */
export function coalesce(run: () => void, intervalMs: number): { (): void; cancel(): void } {
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    timer = null;
    last = Date.now();
    run();
  };
  const call = () => {
    if (timer !== null) return;
    const wait = last + intervalMs - Date.now();
    if (wait <= 0) fire();
    else timer = setTimeout(fire, wait);
  };
  call.cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return call;
}
