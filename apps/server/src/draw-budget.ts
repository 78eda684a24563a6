import os from "node:os";

/**
 * The least a draw is expected to take, however long since one was drawn: about the cheapest page
 * (the sign-in form, on an idle copy). A copy whose calls leave less than this draws nothing.
 */
const MIN_EXPECTED_MS = 25;

/**
 * How much of a server copy's time drawing pages may take. A page drawn for a signed-in player
 * costs tens of milliseconds of CPU (React drawing the UI kit's components, twice for some pages);
 * at the start of an event thousands of players open the site within a minute, and the API's calls
 * must not queue behind page draws. Past the budget, a page is not drawn: the server sends the
 * static shell and the browser draws the page itself, as it did before pages were drawn.
 */
export class DrawBudget {
  /** Draws that ended within the window: when, and how long they took (ms). */
  private readonly ended: { at: number; ms: number }[] = [];
  /** Draws under way: when each began. */
  private readonly running = new Set<{ at: number }>();
  /**
   * What a draw takes, as recent draws took (a moving average, ms): a draw under way counts at least
   * this much, so a burst of requests arriving together is not all let in before any has taken time.
   */
  private expectedMs = 50;
  /** When the last draw ended (or the budget was made). */
  private lastEnded: number;

  constructor(
    /** The most milliseconds of drawing in any window, while the copy is otherwise idle. */
    private readonly budgetMs: number,
    private readonly windowMs = 1_000,
    private readonly now: () => number = () => performance.now(),
    /**
     * How busy the copy is (0 to 1: LoopLoad, its thread answering calls or the machine's processors):
     * the budget is what is left of it. Draws take cores the API's calls share, so a saturated copy
     * draws nothing and sends the static shell, while an idle one draws every page.
     */
    private readonly busy: () => number = () => 0,
  ) {
    this.lastEnded = now();
  }

  /** The budget now: the configured one, less the share of it the copy's busyness takes. */
  currentBudget(): number {
    return this.budgetMs * Math.max(0, 1 - this.busy());
  }

  /** Milliseconds spent drawing within the window (draws under way count their time so far, at least what a draw takes). */
  spent(): number {
    const now = this.now();
    const since = now - this.windowMs;
    while (this.ended.length > 0 && this.ended[0]!.at < since) this.ended.shift();
    let spent = 0;
    // A draw counts the part of it within the window.
    for (const draw of this.ended) spent += Math.min(draw.ms, draw.at - since);
    for (const draw of this.running) spent += Math.max(now - Math.max(draw.at, since), this.expectedMs);
    return spent;
  }

  /**
   * Whether a page may be drawn now: what a draw takes must fit whole in what is left of the
   * budget. (Letting a draw in while anything at all is left would let a copy saturated by calls,
   * its budget a few milliseconds, still draw a page every second or so, each taking tens of
   * milliseconds from the calls.)
   */
  allows(): boolean {
    return this.spent() + this.expectedNow() <= this.currentBudget();
  }

  /**
   * What a draw is expected to take, for letting one in. Only draws teach it, so a few slow ones (the
   * first, compiling the renderer; draws on a machine short of CPU) must not keep every later one
   * out: it counts at most the whole budget, and halves for each window without a draw ending (down
   * to MIN_EXPECTED_MS), until a draw is let in and says what a draw takes now.
   */
  private expectedNow(): number {
    const quiet = Math.max(0, this.now() - this.lastEnded - this.windowMs);
    return Math.max(MIN_EXPECTED_MS, Math.min(this.expectedMs, this.budgetMs) * 0.5 ** (quiet / this.windowMs));
  }

  /**
   * Counts `draw`'s time against the budget, from now until it settles; then what `cost` says it
   * took, if it says (the drawing thread's busy time, not the time the draw waited for its data,
   * which a copy busy with calls makes long), else its time from start to end.
   */
  track<T>(draw: () => Promise<T>, cost: (result: T) => number | undefined = () => undefined): Promise<T> {
    const entry = { at: this.now() };
    this.running.add(entry);
    const done = (measured: number | undefined) => {
      this.running.delete(entry);
      const at = this.now();
      const ms = measured === undefined || !Number.isFinite(measured) ? at - entry.at : Math.max(0, measured);
      this.ended.push({ at, ms });
      this.lastEnded = at;
      this.expectedMs += (ms - this.expectedMs) * 0.2;
    };
    return draw().then(
      (result) => {
        done(cost(result));
        return result;
      },
      (error: unknown) => {
        done(undefined);
        throw error;
      },
    );
  }
}

/** The machine's processors' time so far (ms): busy (user, nice, system, interrupts) and in all. */
export function machineCpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    const working = times.user + times.nice + times.sys + times.irq;
    busy += working;
    total += working + times.idle;
  }
  return { busy, total };
}

/** The share of the time between two readings of machineCpuTimes() the processors were busy (0 to 1). */
export function machineBusyShare(before: { busy: number; total: number }, after: { busy: number; total: number }): number {
  const total = after.total - before.total;
  return total > 0 ? Math.min(1, Math.max(0, (after.busy - before.busy) / total)) : 0;
}

/**
 * How busy this copy is (0 to 1), over the last half second or so: the larger of its thread's
 * event-loop utilisation (the share of the time it was running code rather than waiting) and the
 * share of the machine's processors in use. Either can be the limit: a copy can be saturated on its
 * own thread with cores to spare, or have time on its thread while the machine's cores are all taken
 * (other copies, PostgreSQL, and its own drawing share them). Sampled on a timer that does not keep
 * the process alive.
 */
export class LoopLoad {
  private last = performance.eventLoopUtilization();
  private lastCpu: { busy: number; total: number };
  private value = 0;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    intervalMs = 500,
    /** Reads the machine's processors' times (machineCpuTimes). */
    private readonly readMachine: () => { busy: number; total: number } = machineCpuTimes,
  ) {
    this.lastCpu = readMachine();
    this.timer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      const cpu = this.readMachine();
      this.value = Math.max(performance.eventLoopUtilization(now, this.last).utilization, machineBusyShare(this.lastCpu, cpu));
      this.last = now;
      this.lastCpu = cpu;
    }, intervalMs);
    this.timer.unref();
  }

  /** How busy the copy was over the last interval. */
  current(): number {
    return this.value;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
