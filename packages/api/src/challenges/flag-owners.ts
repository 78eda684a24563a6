import type { Db } from "@flagship/db";
import { deriveTeamFlag } from "@flagship/shared";
import { constantTimeEqual } from "./flag-match.ts";

/**
 * Whose per-team flag a wrong flag is, without deriving every team's flag on every request: per
 * dynamic challenge, a table from each team's flag to the team, built once for the challenge's
 * secret and then extended with the teams created since.
 *
 * A table keys a team by the first 52 of its flag's 128 bits, as a number (so the table holds no
 * flag anyone could submit), and a hit is confirmed by deriving that one team's full flag and
 * comparing it in constant time. The flag prefix is not part of the HMAC, so a new prefix needs
 * no new table.
 *
 * Memory: about 45 bytes a team per cached challenge (a number key, a map entry, a team id):
 * 1,000 teams x 100 dynamic challenges is 100,000 entries, about 4.5 MB. Past MAX_ENTRIES (about
 * 23 MB) the least recently used challenges' tables are dropped, and rebuilt when needed.
 */
const MAX_ENTRIES = 500_000;
/** 13 hex characters: 52 bits, a whole number a double holds exactly. */
const KEY_HEX_LENGTH = 13;

/**
 * How long a team-creating transaction may still commit a team with a lower id than one already
 * read: the longest such transaction is a CTFd import (10 minutes), so ids read within the last
 * 11 minutes are read again (all of them in a process's first 11 minutes); teams seen before
 * are not derived again.
 */
const SETTLE_MS = 11 * 60_000;

/** The teams of one database that the tables know of, read from the database a little at a time. */
class Roster {
  /** Team ids in the order they were first read; tables take the ones after those they hold. */
  readonly ids: number[] = [];
  private readonly known = new Set<number>();
  /** (when, highest id read then), oldest first: ids above one at least SETTLE_MS old are re-read. */
  private reads: { at: number; highest: number }[] = [];
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(private readonly db: Db) {}

  /**
   * Reads the teams committed since the last read. A caller that arrives during a read waits for
   * the next one, which starts after its arrival and so sees every team committed before it.
   */
  catchUp(): Promise<void> {
    if (!this.running) {
      this.running = this.read().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.catchUp();
      });
    return this.queued;
  }

  private async read(): Promise<void> {
    const now = Date.now();
    const settled = this.reads.filter((r) => r.at <= now - SETTLE_MS).at(-1);
    const rows = await this.db.team.findMany({ where: { id: { gt: settled?.highest ?? 0 } }, select: { id: true }, orderBy: { id: "asc" } });
    for (const { id } of rows) {
      if (this.known.has(id)) continue;
      this.known.add(id);
      this.ids.push(id);
    }
    // Only the newest read that has settled is kept, and the ones after it, at most one a second:
    // settling on an older read than need be only reads a few more ids again.
    const highest = rows.at(-1)?.id ?? settled?.highest ?? 0;
    const recent = this.reads.filter((r) => r.at > now - SETTLE_MS);
    if ((recent.at(-1)?.at ?? -Infinity) <= now - 1000) recent.push({ at: now, highest });
    this.reads = [...(settled ? [settled] : []), ...recent];
  }
}

/** One dynamic challenge's flags under one secret: the first 52 bits of each team's flag -> the team. */
class OwnerTable {
  private readonly owners = new Map<number, number>();
  /** Keys two teams share (at 52 bits, about one chance in 10^10 with 1,000 teams): every candidate is checked. */
  private readonly shared = new Map<number, number[]>();
  /** How many of the roster's ids this table holds. */
  synced = 0;

  constructor(readonly secret: string) {}

  get size(): number {
    return this.owners.size;
  }

  /** Adds the roster's teams this table does not hold yet (one HMAC each, once). */
  sync(roster: Roster): void {
    for (; this.synced < roster.ids.length; this.synced += 1) {
      const teamId = roster.ids[this.synced]!;
      const key = keyOf(deriveTeamFlag(this.secret, teamId, ""), "");
      const holder = this.owners.get(key);
      if (holder === undefined) this.owners.set(key, teamId);
      else this.shared.set(key, [...(this.shared.get(key) ?? [holder]), teamId]);
    }
  }

  /** The team other than `exceptTeamId` whose full flag `flag` is, compared in constant time. */
  ownerOf(flag: string, prefix: string, exceptTeamId: number): number | null {
    const key = keyOf(flag, prefix);
    const holder = this.owners.get(key);
    if (holder === undefined) return null;
    const candidates = this.shared.get(key) ?? [holder];
    return candidates.find((teamId) => teamId !== exceptTeamId && constantTimeEqual(flag, deriveTeamFlag(this.secret, teamId, prefix))) ?? null;
  }
}

/** The start of a team flag's hex (`prefix{hex}`), as a number. */
function keyOf(flag: string, prefix: string): number {
  return Number.parseInt(flag.slice(prefix.length + 1, prefix.length + 1 + KEY_HEX_LENGTH), 16);
}

class FlagOwners {
  readonly roster: Roster;
  /** By challenge id, least recently used first. */
  readonly tables = new Map<number, OwnerTable>();

  constructor(db: Db) {
    this.roster = new Roster(db);
  }

  /** The challenge's table for this secret, marked as the most recently used. */
  tableFor(challengeId: number, secret: string): OwnerTable {
    let table = this.tables.get(challengeId);
    this.tables.delete(challengeId);
    // A new secret (staff changed it) makes every team's flag new.
    if (!table || table.secret !== secret) table = new OwnerTable(secret);
    this.tables.set(challengeId, table);
    return table;
  }

  /** Drops the least recently used tables (never the one in use) until the entries fit. */
  evict(): void {
    let entries = [...this.tables.values()].reduce((sum, table) => sum + table.size, 0);
    for (const [challengeId, table] of this.tables) {
      if (entries <= MAX_ENTRIES || this.tables.size === 1) break;
      this.tables.delete(challengeId);
      entries -= table.size;
    }
  }
}

const caches = new WeakMap<Db, FlagOwners>();

function ownersFor(db: Db): FlagOwners {
  let owners = caches.get(db);
  if (!owners) {
    owners = new FlagOwners(db);
    caches.set(db, owners);
  }
  return owners;
}

/**
 * The other team whose per-team flag for this challenge `flag` is (a flag that looks like a team
 * flag with this prefix), or null. Each team's flag is derived once per challenge and secret; a
 * request derives at most the flags of teams created since the last one, plus one to confirm.
 */
export async function findFlagOwner(db: Db, challenge: { id: number; secret: string }, flag: string, prefix: string, exceptTeamId: number): Promise<number | null> {
  const owners = ownersFor(db);
  const table = owners.tableFor(challenge.id, challenge.secret);
  table.sync(owners.roster);
  let owner = table.ownerOf(flag, prefix, exceptTeamId);
  if (owner === null) {
    // Perhaps a team created since the roster was last read (or it was never read).
    await owners.roster.catchUp();
    table.sync(owners.roster);
    owner = table.ownerOf(flag, prefix, exceptTeamId);
  }
  owners.evict();
  if (owner === null) return null;
  // A deleted team keeps its entry; it is no longer anyone's flag.
  const team = await db.team.findUnique({ where: { id: owner }, select: { id: true } });
  return team ? team.id : null;
}

/** How many teams the challenge's table holds (null: no table), and how many teams were read (for tests). */
export function flagOwnerStats(db: Db, challengeId: number): { entries: number | null; teams: number } {
  const owners = ownersFor(db);
  return { entries: owners.tables.get(challengeId)?.size ?? null, teams: owners.roster.ids.length };
}
