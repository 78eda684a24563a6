import WebSocket from "ws";

/** A websocket test client that records every event it receives. */
export interface RecordingSocket {
  events: Record<string, unknown>[];
  /** Resolves with the first recorded event matching `predicate`, waiting up to `timeoutMs`. */
  waitFor(predicate: (event: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  send(data: unknown): void;
  close(): void;
  /** Resolves with the close code and reason once the connection has closed, from either side. */
  closed: Promise<{ code: number; reason: string }>;
}

export async function openSocket(url: string): Promise<RecordingSocket> {
  const socket = new WebSocket(url);
  const events: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.once("close", (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  socket.on("message", (raw) => {
    events.push(JSON.parse(raw.toString()) as Record<string, unknown>);
    for (const wake of waiters) wake();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  return {
    events,
    closed,
    waitFor(predicate, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(predicate);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    send(data) {
      socket.send(JSON.stringify(data));
    },
    close() {
      socket.close();
    },
  };
}
