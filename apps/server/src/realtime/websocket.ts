import websocket from "@fastify/websocket";
import { type AppEvent, createInnerContext, EVENT_CODES, hasStaffPowers, resolveActor, type Services } from "@flagship/api";
import { WS_RESTART_CODE } from "@flagship/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Socket } from "node:net";
import type { WebSocket } from "ws";

interface Client {
  socket: WebSocket;
  /** The connection under the websocket, corked while a batch of frames is written to it. */
  raw: Socket;
  token: string | null;
  userId: number | null;
  teamId: number | null;
  /** Staff sockets also get staff-only events (suspected flag sharing). */
  staff: boolean;
}

/** Sockets written per turn of the event loop when a flush goes to many (see flush()). */
export const WRITE_SLICE = 100;

const CONNECTED = JSON.stringify({ event_code: EVENT_CODES.connected, message: "Websocket connected." });

/**
 * Close codes the server sends. RESTART (1012, "Service Restart") when a copy shuts down: clients
 * reconnect, and the proxy hands the new connection to another copy. OVER_LIMIT (1008, "Policy
 * Violation") when an address holds too many sockets on this copy.
 */
export const WS_CLOSE = {
  restart: { code: WS_RESTART_CODE, reason: "Server restarting, reconnect" },
  overLimit: { code: 1008, reason: "Too many connections from this address" },
} as const;

export interface WebsocketOptions {
  /** Origins besides the site's own whose browser clients may connect. */
  allowedOrigins?: readonly string[];
  /** Sockets one client address may hold on this copy at once; 0 for no cap. */
  maxPerIp?: number;
  /**
   * Events arriving within this many milliseconds of the last write go out together, as one write
   * per socket; 0 sends each event at once.
   */
  batchMs?: number;
}

/** An event waiting for the next write: its frame, and who gets it (everyone, or these clients). */
interface Pending {
  frame: Buffer;
  targets: "all" | Iterable<Client>;
}

/**
 * A final, unmasked text frame holding `payload` (RFC 6455, 5.2), as ws would write it: made once
 * per event, the same bytes then go to every socket that gets the event.
 */
export function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81;
  if (length < 126) {
    frame[1] = length;
  } else if (length < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, headerLength);
  return frame;
}

/**
 * The websocket at /api/v2/ws/. Event 0 on connect; the client sends {"token"} to join its team's
 * channel. Events for everyone are serialised once and written to every socket; team events go to
 * that team's sockets only. A socket follows its user into a team they join later (event 4).
 *
 * Writes are batched: an event after a quiet spell goes out at once, and the events arriving within
 * `batchMs` of that write wait and go out together, every socket getting its frames (in order) in
 * one write. A solve goes to every socket, so under a stream of solves each socket costs at most
 * one write per `batchMs`, not one per event.
 */
export async function registerWebsocket(
  app: FastifyInstance,
  services: Services,
  { allowedOrigins = [], maxPerIp = 0, batchMs = 0 }: WebsocketOptions = {},
): Promise<{ clients: () => number; writes: () => number; delivered: () => number }> {
  const clients = new Set<Client>();
  const perAddress = new Map<string, number>();
  await app.register(websocket, {
    // On shutdown every socket hears it should reconnect (elsewhere), before the copy stops listening.
    preClose(this: FastifyInstance, done) {
      drain();
      for (const client of clients) client.socket.close(WS_CLOSE.restart.code, WS_CLOSE.restart.reason);
      this.websocketServer.close();
      done();
    },
    options: {
      maxPayload: 16 * 1024,
      // Browsers send Origin: only this site and the configured CORS origins may connect.
      // Non-browser clients (bots, scripts) send none and are let in.
      verifyClient: ({ origin, req }: { origin?: string; req: { headers: { host?: string } } }) =>
        !origin || allowedOrigins.includes(origin) || sameHost(origin, req.headers.host),
    },
  });
  const byTeam = new Map<number, Set<Client>>();

  const setTeam = (client: Client, teamId: number | null) => {
    if (client.teamId !== null) byTeam.get(client.teamId)?.delete(client);
    client.teamId = teamId;
    if (teamId !== null) {
      let set = byTeam.get(teamId);
      if (!set) byTeam.set(teamId, (set = new Set()));
      set.add(client);
    }
  };

  const moveUser = (userId: unknown, teamId: unknown) => {
    if (typeof userId !== "number") return;
    for (const client of clients) if (client.userId === userId) setTeam(client, typeof teamId === "number" ? teamId : null);
  };

  /** Resolves the socket's token again; a token that no longer works leaves the team channel. */
  const authenticate = async (client: Client) => {
    try {
      const actor = client.token ? await resolveActor(services, client.token) : null;
      client.userId = actor?.id ?? null;
      // Staff powers as everywhere else (staff without two-factor lose them when it is enforced).
      client.staff = actor !== null && (await hasStaffPowers(createInnerContext(services, actor)));
      setTeam(client, actor?.teamId ?? null);
    } catch {
      // A bad token (logged out, deactivated, deleted) leaves the socket on the public channel only.
      client.userId = null;
      client.staff = false;
      setTeam(client, null);
    }
  };

  let pending: Pending[] = [];
  let timer: NodeJS.Timeout | null = null;
  let lastFlush = 0;
  let writes = 0;
  /** Events written to sockets, one per socket each reached (a write may carry several). */
  let delivered = 0;

  /**
   * Writes prepared frames straight to the connection: one write whatever their number. ws sends
   * nothing of its own but whole frames (compression is off), so these never split one of its.
   */
  const write = (client: Client, frames: Buffer, events: number) => {
    if (client.socket.readyState !== client.socket.OPEN) return;
    writes += 1;
    delivered += events;
    client.raw.write(frames);
  };

  /** The writes of the flush still being made, slice by slice; null between flushes. */
  let unwritten: { list: [Client, Buffer, number][]; next: number } | null = null;

  /**
   * Writes what is pending: each socket its own frames in order, in one write. The writes go out
   * in slices of WRITE_SLICE sockets, the event loop serving requests between slices: a write to a
   * socket is a system call, and a thousand of them in one go held every request of the copy up for
   * tens of milliseconds. A flush begins only once the one before it is written, so each socket
   * still gets its frames in order.
   */
  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    if (unwritten) return;
    lastFlush = Date.now();
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    let list: [Client, Buffer, number][];
    if (batch.every((p) => p.targets === "all")) {
      // The common case, solves: every socket gets the same bytes, joined once.
      const frames = batch.length === 1 ? batch[0]!.frame : Buffer.concat(batch.map((p) => p.frame));
      list = [...clients].map((client) => [client, frames, batch.length]);
    } else {
      const lists = new Map<Client, Buffer[]>();
      for (const { frame, targets } of batch) {
        for (const client of targets === "all" ? clients : targets) {
          const frames = lists.get(client);
          if (frames) frames.push(frame);
          else lists.set(client, [frame]);
        }
      }
      list = [...lists].map(([client, frames]) => [client, frames.length === 1 ? frames[0]! : Buffer.concat(frames), frames.length]);
    }
    unwritten = { list, next: 0 };
    writeSlice();
  }

  function writeSlice(): void {
    if (!unwritten) return;
    const { list } = unwritten;
    const end = Math.min(list.length, unwritten.next + WRITE_SLICE);
    for (let i = unwritten.next; i < end; i++) write(list[i]![0], list[i]![1], list[i]![2]);
    unwritten.next = end;
    if (end < list.length) {
      setImmediate(writeSlice);
      return;
    }
    unwritten = null;
    // Events that came while the slices were written go out in the next flush, as usual.
    if (pending.length > 0) schedule();
  }

  /** Everything pending and unwritten, written now (the copy is shutting down). */
  function drain(): void {
    while (unwritten) writeSlice();
    flush();
    while (unwritten) writeSlice();
  }

  /** Flushes now after a quiet spell, else at the end of the window that began with the last flush. */
  function schedule(): void {
    const wait = lastFlush + batchMs - Date.now();
    if (wait <= 0) flush();
    else timer ??= setTimeout(flush, wait);
  }

  const unsubscribe = services.events.subscribe((event: AppEvent) => {
    if (event.kind === "internal") {
      // A user left or lost their team: their sockets leave its channel.
      if (event.name === "membership_changed") moveUser(event.data?.userId, event.data?.teamId);
      // Sessions ended (logout, password change, deletion...): sockets keep only live tokens.
      if (event.name === "sessions_revoked") {
        for (const client of clients) if (client.userId === event.data?.userId) void authenticate(client);
      }
      return;
    }
    const { payload, audience } = event;
    if (payload.event_code === EVENT_CODES.teamJoin) moveUser(payload.user, payload.team);
    // Serialised, encoded and framed once per event, not per socket: a solve goes to every socket.
    const frame = textFrame(Buffer.from(JSON.stringify(payload)));
    let targets: Pending["targets"];
    if ("all" in audience) targets = "all";
    else if (!("teamId" in audience)) targets = [...clients].filter((c) => c.staff);
    else if (!audience.staff) targets = [...(byTeam.get(audience.teamId) ?? [])];
    // A team's news that staff see too (a solve while the scoreboard is frozen), once per socket.
    else targets = new Set([...(byTeam.get(audience.teamId) ?? []), ...[...clients].filter((c) => c.staff)]);
    pending.push({ frame, targets });
    schedule();
  });

  app.addHook("onClose", async () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
    for (const client of clients) client.socket.terminate();
  });

  const handler = (socket: WebSocket, request: FastifyRequest) => {
    const address = request.ip;
    const held = perAddress.get(address) ?? 0;
    if (maxPerIp > 0 && held >= maxPerIp) {
      socket.close(WS_CLOSE.overLimit.code, WS_CLOSE.overLimit.reason);
      return;
    }
    perAddress.set(address, held + 1);
    const client: Client = { socket, raw: request.raw.socket, token: null, userId: null, teamId: null, staff: false };
    clients.add(client);
    socket.send(CONNECTED);
    socket.on("message", (raw) => {
      let token: unknown;
      try {
        token = (JSON.parse(raw.toString()) as { token?: unknown }).token;
      } catch {
        return;
      }
      if (typeof token !== "string") return;
      client.token = token;
      void authenticate(client);
    });
    socket.on("close", () => {
      clients.delete(client);
      setTeam(client, null);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  };
  app.get("/api/v2/ws", { websocket: true }, handler);
  app.get("/api/v2/ws/", { websocket: true }, handler);
  return { clients: () => clients.size, writes: () => writes, delivered: () => delivered };
}

function sameHost(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}
