import { EventEmitter } from "node:events";
import type { Standings } from "../leaderboard/standings.ts";

/** Websocket event codes of the REST contract. */
export const EVENT_CODES = {
  connected: 0,
  solve: 1,
  flagRejected: 2,
  hintUsed: 3,
  teamJoin: 4,
  announcement: 5,
  challengeUpdate: 6,
  scoreUpdate: 7,
  /** Staff only: a suspected flag-sharing incident was recorded. */
  sharingSuspected: 8,
  /**
   * Flagship's own, like 8: config keys staff changed `{keys}` (public keys to everyone, staff-only
   * ones to staff), so open pages re-read the config: a moved schedule, a revealed board.
   */
  configUpdate: 9,
  /** Staff only, Flagship's own: a wrong flag was recorded (the submissions log refreshes; it carries no flag text). */
  submission: 10,
} as const;

/** A team's and a user's wrong flags in all, after one of them was recorded. */
export interface AttemptTotalsChange {
  teamId: number;
  team: number;
  userId: number;
  user: number;
}

/**
 * An event for websocket clients (`payload` carries the fields beside event_code), or an internal
 * signal between server copies (`internal`, e.g. cache invalidation) that never reaches a socket.
 * A solve also carries the new `standings` of those it moved, for the copies' leaderboards only; a
 * rejected flag carries the team's and the user's new wrong-flag totals (`attempts`), for the
 * copies' own views only.
 */
export type AppEvent =
  | {
      kind: "socket";
      /** Everyone; one team's sockets (and with `staff`, staff's sockets too); or staff's only. */
      audience: { all: true } | { teamId: number; staff?: true } | { staff: true };
      payload: { event_code: number } & Record<string, unknown>;
      standings?: Standings;
      attempts?: AttemptTotalsChange;
    }
  | { kind: "internal"; name: string; data?: Record<string, unknown> };

/**
 * Delivered to this copy's own subscribers when its link to the other copies comes back after an
 * outage: events from the others were missed meanwhile, so every cache drops what it holds.
 */
export const RESYNC_EVENT = "events_resync";

/** Whether an event is the resync signal (every cache listens for it besides its own signal). */
export function isResync(event: AppEvent): boolean {
  return event.kind === "internal" && event.name === RESYNC_EVENT;
}

export interface EventPublisher {
  /**
   * Sends an event to every copy's subscribers. Never rejects and never waits for a broker:
   * callers publish after their transaction committed, and nothing may turn that into an error.
   */
  publish(event: AppEvent): Promise<void>;
  subscribe(listener: (event: AppEvent) => void): () => void;
  close(): Promise<void>;
}

/** Single-process fan-out: every subscriber in this process gets every event. */
export class InProcessPublisher implements EventPublisher {
  private readonly emitter = new EventEmitter({ captureRejections: false });

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  async publish(event: AppEvent): Promise<void> {
    this.emitter.emit("event", event);
  }

  subscribe(listener: (event: AppEvent) => void): () => void {
    this.emitter.on("event", listener);
    return () => this.emitter.off("event", listener);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
