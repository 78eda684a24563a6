import { EventEmitter } from "node:events";

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
} as const;

/**
 * An event for websocket clients (`payload` carries the fields beside event_code), or an internal
 * signal between server copies (`internal`, e.g. cache invalidation) that never reaches a socket.
 */
export type AppEvent =
  | { kind: "socket"; audience: { all: true } | { teamId: number }; payload: { event_code: number } & Record<string, unknown> }
  | { kind: "internal"; name: string; data?: Record<string, unknown> };

export interface EventPublisher {
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
