import { TIMINGS, WS_RESTART_SPREAD_MS } from "@flagship/shared";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RealtimeSocket, type SocketState } from "./socket.ts";

/** A stand-in for the browser's WebSocket: records each one made, opened and closed by the test. */
class FakeSocket {
  static readonly OPEN = 1;
  static made: FakeSocket[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send(): void {}
  close(): void {}
  open(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  drop(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

describe("RealtimeSocket's reconnects", () => {
  beforeEach(() => {
    FakeSocket.made = [];
    vi.useFakeTimers();
    vi.stubGlobal("WebSocket", FakeSocket);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  /** Drops the open socket with `code` and answers when the next one was made, in ms. */
  function reconnectAfter(code: number, random: number): number {
    vi.spyOn(Math, "random").mockReturnValue(random);
    FakeSocket.made.at(-1)!.drop(code);
    const before = FakeSocket.made.length;
    for (let ms = 0; ms <= 20_000; ms += 10) {
      if (FakeSocket.made.length > before) return ms;
      vi.advanceTimersByTime(10);
    }
    throw new Error("no reconnect");
  }

  it("spreads the reconnect after a server copy's restart (1012) over WS_RESTART_SPREAD_MS, by the random draw", () => {
    const states: SocketState[] = [];
    const socket = new RealtimeSocket("ws://flagship.test/api/v2/ws/", () => "token", () => undefined, (s) => states.push(s));
    socket.start();
    FakeSocket.made[0]!.open();
    expect(reconnectAfter(1012, 0.1)).toBe(Math.round(0.1 * WS_RESTART_SPREAD_MS));
    FakeSocket.made.at(-1)!.open();
    expect(reconnectAfter(1012, 0.9)).toBe(Math.round(0.9 * WS_RESTART_SPREAD_MS));
    expect(states.some((s) => !s.connected && s.cooldown === Math.round(0.9 * WS_RESTART_SPREAD_MS))).toBe(true);
    socket.stop();
  });

  it("waits a random point in the upper half of its back-off after other drops, doubling while attempts fail", () => {
    const socket = new RealtimeSocket("ws://flagship.test/api/v2/ws/", () => "token", () => undefined, () => undefined);
    socket.start();
    FakeSocket.made[0]!.open();
    // First drop: the back-off starts at TIMINGS.wsBackoffStartMs; a draw of 0 waits half of it.
    expect(reconnectAfter(1006, 0)).toBe(TIMINGS.wsBackoffStartMs / 2);
    // The attempt fails without opening: the back-off has doubled; a draw of 1 waits all of it.
    expect(reconnectAfter(1006, 1)).toBe(TIMINGS.wsBackoffStartMs * 2);
    socket.stop();
  });
});
