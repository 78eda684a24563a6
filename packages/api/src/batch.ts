/**
 * Lookups by key that share statements under load: a lookup goes out at once while fewer than
 * `parallel` batches are running; those arriving meanwhile wait and then go out together, one
 * statement for all their keys (up to `maxKeys`). Lookups of one key in the same waiting batch
 * share the answer. A lookup never joins a statement already sent, so it always sees what was
 * committed before it was asked: the answer is as fresh as a statement of its own would be.
 */
export class KeyedBatcher<K, V> {
  private waiting = new Map<K, { resolve: (value: V) => void; reject: (error: unknown) => void }[]>();
  private running = 0;

  constructor(
    /** Answers every key asked (a key left out gets `missing`). */
    private readonly load: (keys: K[]) => Promise<Map<K, V>>,
    private readonly missing: V,
    private readonly parallel = 2,
    private readonly maxKeys = 500,
  ) {}

  get(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      const waiters = this.waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.parallel && this.waiting.size > 0) {
      const batch = new Map<K, { resolve: (value: V) => void; reject: (error: unknown) => void }[]>();
      for (const [key, waiters] of this.waiting) {
        batch.set(key, waiters);
        this.waiting.delete(key);
        if (batch.size >= this.maxKeys) break;
      }
      this.running += 1;
      this.load([...batch.keys()])
        .then(
          (answers) => {
            for (const [key, waiters] of batch) {
              const value = answers.has(key) ? answers.get(key)! : this.missing;
              for (const waiter of waiters) waiter.resolve(value);
            }
          },
          (error: unknown) => {
            for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
          },
        )
        .finally(() => {
          this.running -= 1;
          this.pump();
        });
    }
  }
}
