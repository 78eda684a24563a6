import type { Db } from "@flagship/db";
import type { Context } from "../context.ts";
import { type AppEvent, type AttemptTotalsChange, EVENT_CODES, isResync } from "../events/publisher.ts";
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
 * - a wrong flag changes only the team's and the user's wrong-flag counts: the statement that
 *   records it returns their new totals (attempt-writer.ts), which are set in the views in place
 *   (here at once, elsewhere from the `flag_rejected` event, which carries them), so no read waits
 *   for a count. Totals only grow and the statements that raise them are serialised by their rows'
 *   locks, so the highest total known is the true one: events may arrive in any order, and a view
 *   built while one was on its way takes the highest total seen so far. Wrong flags are an event's
 *   commonest write; when each one sent its team's views back to the database, the team pages of
 *   a busy event mostly waited for a recount;
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
  /** A wrong flag was recorded: the team's and the user's new wrong-flag totals. */
  attempts?: AttemptTotalsChange;
  /** The teams and users whose points a solve moved (a decay re-scoring moves every earlier solver). */
  moved?: { teams: readonly number[]; users: readonly number[] };
}

interface SelfEntry {
  teamId: number | null;
  /** The view's freeze (see OwnViews.self): a view built frozen is not served live, nor the reverse. */
  mode: string;
  expires: number;
  view: SelfView;
}

interface TeamEntry {
  mode: string;
  expires: number;
  view: TeamView;
}

/** A view with its wrong-flag count raised to the highest total known (never lowered). */
function withTotal<V extends { incorrect_solves: number }>(view: V, total: number | undefined): V {
  return total === undefined || total <= view.incorrect_solves ? view : { ...view, incorrect_solves: total };
}

export class OwnViews {
  private readonly selves = new Map<number, SelfEntry>();
  private readonly teams = new Map<number, TeamEntry>();
  /** Cached profiles per team, so a team's change finds its members without a scan. */
  private readonly membersOf = new Map<number, Set<number>>();
  /** Bumped on every change of a team; a load compares it before and after. */
  private readonly versions = new Map<number, number>();
  /** The highest wrong-flag totals heard of since the views were last all dropped. */
  private readonly teamTotals = new Map<number, number>();
  private readonly userTotals = new Map<number, number>();
  private generation = 0;

  /**
   * `mode` names how the view is built: "live", or the freeze time while the scoreboard is frozen
   * (leaderboard/freeze.ts). A cached view of another mode is built again, so the whole event
   * shows the moment the freeze ends, with no event to say so.
   */
  async self(userId: number, teamId: number | null, load: () => Promise<SelfView>, mode = "live"): Promise<SelfView> {
    const entry = this.selves.get(userId);
    if (entry && entry.teamId === teamId && entry.mode === mode && Date.now() < entry.expires) return entry.view;
    const stamp = this.stamp(teamId);
    const view = withTotal(await load(), this.userTotals.get(userId));
    if (this.unchangedSince(stamp, teamId)) {
      this.dropSelf(userId);
      if (this.selves.size >= MAX_SELF) this.dropSelf(this.selves.keys().next().value!);
      this.selves.set(userId, { teamId, mode, expires: expiry(), view });
      if (teamId !== null) {
        let members = this.membersOf.get(teamId);
        if (!members) this.membersOf.set(teamId, (members = new Set()));
        members.add(userId);
      }
    }
    return view;
  }

  async team(teamId: number, load: () => Promise<TeamView | null>, mode = "live"): Promise<TeamView | null> {
    const entry = this.teams.get(teamId);
    if (entry && entry.mode === mode && Date.now() < entry.expires) return entry.view;
    const stamp = this.stamp(teamId);
    const loaded = await load();
    const view = loaded && withTotal(loaded, this.teamTotals.get(teamId));
    if (view && this.unchangedSince(stamp, teamId)) {
      this.teams.delete(teamId);
      if (this.teams.size >= MAX_TEAMS) this.teams.delete(this.teams.keys().next().value!);
      this.teams.set(teamId, { mode, expires: expiry(), view });
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
      this.teamTotals.clear();
      this.userTotals.clear();
      return;
    }
    if (change.attempts) {
      this.raiseTotals(change.attempts);
      return;
    }
    if (change.teamId === undefined) return;
    const teamId = change.teamId;
    this.versions.set(teamId, (this.versions.get(teamId) ?? 0) + 1);
    this.teams.delete(teamId);
    const members = this.membersOf.get(teamId);
    if (members) {
      for (const userId of members) this.selves.delete(userId);
      this.membersOf.delete(teamId);
    }
  }

  /** A wrong flag's totals: kept as the highest known, and set in the cached views in place. */
  private raiseTotals({ teamId, team, userId, user }: AttemptTotalsChange): void {
    if (team > (this.teamTotals.get(teamId) ?? -1)) this.teamTotals.set(teamId, team);
    if (user > (this.userTotals.get(userId) ?? -1)) this.userTotals.set(userId, user);
    const teamEntry = this.teams.get(teamId);
    if (teamEntry) teamEntry.view = withTotal(teamEntry.view, team);
    const selfEntry = this.selves.get(userId);
    if (selfEntry) selfEntry.view = withTotal(selfEntry.view, user);
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
  // A rejected flag carries the new totals; one without them (from an older copy) drops the team's views.
  if (code === EVENT_CODES.flagRejected) return event.attempts ? { attempts: event.attempts } : typeof team === "number" ? { teamId: team } : null;
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
