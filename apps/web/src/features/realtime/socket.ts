import { nextCooldown, reconnectDelay, TIMINGS } from "@flagship/shared";

export interface SocketState {
  connected: boolean;
  /** The current back-off before the next attempt, in ms. */
  cooldown: number;
  /** Seconds until the next attempt while disconnected. */
  timer: number;
}

export type SocketEvent = { event_code: number } & Record<string, unknown>;

/**
 * A websocket to /api/v2/ws/ that sends the session token on open and reconnects with back-off and
 * jitter (reconnectDelay: spread over seconds after a server copy's restart), reporting its state
 * every second while it waits.
 */
export class RealtimeSocket {
  private socket: WebSocket | null = null;
  private cooldown: number = TIMINGS.wsBackoffStartMs;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private tick: ReturnType<typeof setInterval> | null = null;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly token: () => string | null,
    private readonly onEvent: (event: SocketEvent) => void,
    private readonly onState: (state: SocketState) => void,
  ) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** Re-sends the token, e.g. after logging in or switching user. */
  authenticate(): void {
    const token = this.token();
    if (token && this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ token }));
  }

  stop(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.tick) clearInterval(this.tick);
    this.socket?.close();
    this.socket = null;
  }

  private connect(): void {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.cooldown = TIMINGS.wsBackoffStartMs;
      this.onState({ connected: true, cooldown: this.cooldown, timer: 0 });
      this.authenticate();
    };
    socket.onmessage = (message) => {
      try {
        const event = JSON.parse(String(message.data)) as SocketEvent;
        if (typeof event.event_code === "number") this.onEvent(event);
      } catch {
        // Ignore frames that are not events.
      }
    };
    socket.onclose = (event) => {
      if (this.socket !== socket || this.stopped) return;
      this.scheduleReconnect(event.code);
    };
  }

  private scheduleReconnect(closeCode: number): void {
    const wait = reconnectDelay(this.cooldown, closeCode);
    this.cooldown = nextCooldown(this.cooldown);
    let timer = Math.ceil(wait / 1000);
    this.onState({ connected: false, cooldown: wait, timer });
    if (this.tick) clearInterval(this.tick);
    this.tick = setInterval(() => {
      timer = Math.max(timer - 1, 0);
      this.onState({ connected: false, cooldown: wait, timer });
    }, 1000);
    this.retry = setTimeout(() => {
      if (this.tick) clearInterval(this.tick);
      this.connect();
    }, wait);
  }
}
