import type { Db } from "@flagship/db";
import type { Context } from "../context.ts";
import { EVENT_CODES, isResync, type AppEvent } from "../events/publisher.ts";
import type { TeamView } from "../teams/team-view.ts";
import type { SelfView } from "./get-self.ts";

/**
 * The own profile (GET /member/self/) and own team (GET /team/self/) of each player, kept per
 * process so a player's repeated reads cost no query. Each is built by the very code that builds
 * it fresh, and dropped when something it shows changes:
 *
 * - a team's solve (its members' solves and points) drops that team's entries: in this process at
 *   once, by the submitting code; in other server copies on the `solve` event it publishes anyway,
 *   so no extra message is sent;
 * - a team's wrong flag changes only its wrong-flag counts: the team's entries are marked for a
 *   recount (here at once, elsewhere on the `flag_rejected` event), and their next read counts
 *   the attempts again (one indexed count) instead of rebuilding the view (three to five queries).
 *   Wrong flags are an event's commonest write; with every one dropping its team's views, the
 *   profile and team reads of a busy event were mostly rebuilt;
 * - a solve that re-scores a decay challenge changes every earlier solver: the entries of every
 *   team and user the re-scoring moved go (the solve's `standings` name them), here at once and
 *   elsewhere on the `solve` event that carries them; the rest of the event's views stay;
 * - a hint use or any other player-state change of a team (`player_state_changed`) drops the team;
 * - every other mutation (a profile or team edit, a join or leave, a staff edit or score
 *   adjustment, a config change) already forgets every cached player state before its reply is
 *   sent, which drops every entry here too; a resync after a broker outage does the same.
 *
 * A load that raced with a change of its team is used for that request but never stored. Entries
 * expire after about two minutes (which only bounds edits made outside the application) and
 * their number is bounded, oldest first out.
 */
const TTL_MS = 120_000;
const MAX_SELF = 25_000;
const MAX_TEAMS = 12_500;
const expiry = () => Date.now() + TTL_MS * (0.8 + Math.random() * 0.4);

export interface ViewChange {
  teamId?: number;
  all?: boolean;
  /** Only the team's wrong-flag counts changed (a rejected flag): recount them, keep the rest. */
  attempts?: boolean;
  /** The teams and users whose points a solve moved (a decay re-scoring moves every earlier solver). */
  moved?: { teams: readonly number[]; users: readonly number[] };
}

/** A view's wrong-flag count read again from the database. */
export type Recount = () => Promise<number>;

interface SelfEntry {
  teamId: number | null;
  expires: number;
  view: SelfView;
  /** The wrong-flag count is out of date (a rejected flag since the view was read). */
  recount: boolean;
}

interface TeamEntry {
  expires: number;
  view: TeamView;
  recount: boolean;
}

export class OwnViews {
  private readonly selves = new Map<number, SelfEntry>();
  private readonly teams = new Map<number, TeamEntry>();
  /** Cached profiles per team, so a team's change finds its members without a scan. */
  private readonly membersOf = new Map<number, Set<number>>();
  /** Bumped on every change of a team; a load compares it before and after. */
  private readonly versions = new Map<number, number>();
  private generation = 0;

  async self(userId: number, teamId: number | null, load: () => Promise<SelfView>, recount: Recount): Promise<SelfView> {
    const entry = this.selves.get(userId);
    if (entry && entry.teamId === teamId && Date.now() < entry.expires) {
      if (!entry.recount) return entry.view;
      const stamp = this.stamp(teamId);
      const view: SelfView = { ...entry.view, incorrect_solves: await recount() };
      // Kept only when nothing changed while counting (a later wrong flag leaves it to be recounted).
      if (this.unchangedSince(stamp, teamId) && this.selves.get(userId) === entry) this.selves.set(userId, { ...entry, view, recount: false });
      return view;
    }
    const stamp = this.stamp(teamId);
    const view = await load();
    if (this.unchangedSince(stamp, teamId)) {
      this.dropSelf(userId);
      if (this.selves.size >= MAX_SELF) this.dropSelf(this.selves.keys().next().value!);
      this.selves.set(userId, { teamId, expires: expiry(), view, recount: false });
      if (teamId !== null) {
        let members = this.membersOf.get(teamId);
        if (!members) this.membersOf.set(teamId, (members = new Set()));
        members.add(userId);
      }
    }
    return view;
  }

  async team(teamId: number, load: () => Promise<TeamView | null>, recount: Recount): Promise<TeamView | null> {
    const entry = this.teams.get(teamId);
    if (entry && Date.now() < entry.expires) {
      if (!entry.recount) return entry.view;
      const stamp = this.stamp(teamId);
      const view: TeamView = { ...entry.view, incorrect_solves: await recount() };
      if (this.unchangedSince(stamp, teamId) && this.teams.get(teamId) === entry) this.teams.set(teamId, { ...entry, view, recount: false });
      return view;
    }
    const stamp = this.stamp(teamId);
    const view = await load();
    if (view && this.unchangedSince(stamp, teamId)) {
      this.teams.delete(teamId);
      if (this.teams.size >= MAX_TEAMS) this.teams.delete(this.teams.keys().next().value!);
      this.teams.set(teamId, { expires: expiry(), view, recount: false });
    }
    return view;
  }

  invalidate(change: ViewChange): void {
    if (change.moved) {
      for (const teamId of change.moved.teams) this.invalidate({ teamId });
      // A solver who has since left the team keeps the solve on their own profile.
      for (const userId of change.moved.users) this.dropSelf(userId);
      return;
    }
    if (change.all) {
      this.generation += 1;
      this.selves.clear();
      this.teams.clear();
      this.membersOf.clear();
      this.versions.clear();
      return;
    }
    if (change.teamId === undefined) return;
    const teamId = change.teamId;
    this.versions.set(teamId, (this.versions.get(teamId) ?? 0) + 1);
    if (change.attempts) {
      const team = this.teams.get(teamId);
      if (team) team.recount = true;
      for (const userId of this.membersOf.get(teamId) ?? []) {
        const self = this.selves.get(userId);
        if (self) self.recount = true;
      }
      return;
    }
    this.teams.delete(teamId);
    const members = this.membersOf.get(teamId);
    if (members) {
      for (const userId of members) this.selves.delete(userId);
      this.membersOf.delete(teamId);
    }
  }

  /** How many views are held (for tests and diagnostics). */
  get size(): { selves: number; teams: number } {
    return { selves: this.selves.size, teams: this.teams.size };
  }

  private stamp(teamId: number | null): { generation: number; version: number } {
    return { generation: this.generation, version: teamId === null ? 0 : (this.versions.get(teamId) ?? 0) };
  }

  private unchangedSince(stamp: { generation: number; version: number }, teamId: number | null): boolean {
    return stamp.generation === this.generation && (teamId === null || (this.versions.get(teamId) ?? 0) === stamp.version);
  }

  private dropSelf(userId: number): void {
    const entry = this.selves.get(userId);
    if (!entry) return;
    this.selves.delete(userId);
    if (entry.teamId !== null) this.membersOf.get(entry.teamId)?.delete(userId);
  }
}

/** What an event from any copy changes here. */
function changeOf(event: AppEvent): ViewChange | null {
  if (isResync(event)) return { all: true };
  if (event.kind === "internal") {
    if (event.name !== "player_state_changed") return null;
    const data = (event.data ?? {}) as { teamId?: number; all?: boolean };
    return data.all ? { all: true } : typeof data.teamId === "number" ? { teamId: data.teamId } : null;
  }
  const { event_code: code, team } = event.payload;
  // The solve event before it named everyone the re-scoring moved (below).
  if (code === EVENT_CODES.scoreUpdate) return null;
  if (code === EVENT_CODES.solve) {
    if (event.standings) return { moved: { teams: event.standings.teams.map((t) => t.id), users: event.standings.users.map((u) => u.id) } };
    // A solve without its standings (from an older copy): whom a re-scoring moved is unknown.
    return { all: true };
  }
  if (code === EVENT_CODES.flagRejected && typeof team === "number") return { teamId: team, attempts: true };
  return null;
}

const caches = new WeakMap<Db, OwnViews>();

export function ownViews(ctx: Pick<Context, "db" | "events">): OwnViews {
  let cache = caches.get(ctx.db);
  if (!cache) {
    const created = new OwnViews();
    cache = created;
    caches.set(ctx.db, created);
    ctx.events.subscribe((event) => {
      const change = changeOf(event);
      if (change) created.invalidate(change);
    });
  }
  return cache;
}

/** Drops views in this process at once (other copies follow the event the caller publishes). */
export function invalidateOwnViews(ctx: Pick<Context, "db" | "events">, change: ViewChange): void {
  ownViews(ctx).invalidate(change);
}
