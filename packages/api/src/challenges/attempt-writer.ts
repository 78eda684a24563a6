import type { Db } from "@flagship/db";

/** One incorrect attempt to record. */
export interface AttemptRow {
  teamId: number;
  userId: number;
  challengeId: number;
  flag: string;
  ip: string | null;
}

interface Waiting {
  row: AttemptRow;
  resolve(): void;
  reject(error: unknown): void;
}

/** Statements in flight at once; attempts arriving meanwhile wait and go together in the next one. */
const IN_FLIGHT = 2;
/** Rows per statement at most. */
const MAX_BATCH = 500;

/**
 * Group commit for wrong flags, the commonest write of an event. With PostgreSQL flushing every
 * commit to disk, one INSERT per attempt costs a commit (and a disk flush) per attempt. Here the
 * first attempt is written at once (no added wait when the server is quiet); attempts that
 * arrive while IN_FLIGHT statements are running queue up and are then written together, as one
 * multi-row INSERT: one round trip and one commit for all of them.
 *
 * Durability is unchanged: each caller's promise resolves only once the statement holding its
 * row has committed, so an acknowledged attempt is on disk. If a statement fails, its rows are
 * written again one by one, so one bad row (say, a challenge deleted meanwhile) fails only its
 * own request.
 */
class AttemptWriter {
  private queue: Waiting[] = [];
  private running = 0;

  constructor(private readonly db: Db) {}

  record(row: AttemptRow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      if (this.running < IN_FLIGHT) this.flush();
    });
  }

  private flush(): void {
    if (this.queue.length === 0) return;
    const batch = this.queue.length <= MAX_BATCH ? this.queue : this.queue.slice(0, MAX_BATCH);
    this.queue = this.queue.length <= MAX_BATCH ? [] : this.queue.slice(MAX_BATCH);
    this.running += 1;
    void this.write(batch).finally(() => {
      this.running -= 1;
      this.flush();
    });
  }

  private async write(batch: Waiting[]): Promise<void> {
    try {
      await insertAttempts(this.db, batch.map((w) => w.row));
      for (const w of batch) w.resolve();
      return;
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
    }
    await Promise.all(
      batch.map((w) =>
        insertAttempts(this.db, [w.row]).then(
          () => w.resolve(),
          (error: unknown) => w.reject(error),
        ),
      ),
    );
  }
}

function insertAttempts(db: Db, rows: AttemptRow[]): Promise<number> {
  if (rows.length === 1) {
    const r = rows[0]!;
    return db.$executeRaw`INSERT INTO incorrect_attempts (team_id, user_id, challenge_id, flag, ip) VALUES (${r.teamId}, ${r.userId}, ${r.challengeId}, ${r.flag}, ${r.ip})`;
  }
  return db.$executeRaw`
    INSERT INTO incorrect_attempts (team_id, user_id, challenge_id, flag, ip)
    SELECT * FROM unnest(${rows.map((r) => r.teamId)}::int[], ${rows.map((r) => r.userId)}::int[], ${rows.map((r) => r.challengeId)}::int[],
                         ${rows.map((r) => r.flag)}::text[], ${rows.map((r) => r.ip)}::text[])`;
}

const writers = new WeakMap<Db, AttemptWriter>();

/** Records an incorrect attempt, grouped with those arriving at the same time; resolves once committed. */
export function recordIncorrectAttempt(db: Db, row: AttemptRow): Promise<void> {
  let writer = writers.get(db);
  if (!writer) writers.set(db, (writer = new AttemptWriter(db)));
  return writer.record(row);
}
