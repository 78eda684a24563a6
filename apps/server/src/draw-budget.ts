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

  constructor(
    /** The most milliseconds of drawing in any window. */
    private readonly budgetMs: number,
    private readonly windowMs = 1_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

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

  /** Whether a page may be drawn now. */
  allows(): boolean {
    return this.spent() < this.budgetMs;
  }

  /** Counts `draw`'s time against the budget, from now until it settles. */
  track<T>(draw: () => Promise<T>): Promise<T> {
    const entry = { at: this.now() };
    this.running.add(entry);
    const done = () => {
      this.running.delete(entry);
      const at = this.now();
      const ms = at - entry.at;
      this.ended.push({ at, ms });
      this.expectedMs += (ms - this.expectedMs) * 0.2;
    };
    return draw().finally(done);
  }
}
