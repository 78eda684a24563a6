import websocket from "@fastify/websocket";
import { type AppEvent, createInnerContext, EVENT_CODES, hasStaffPowers, resolveActor, type Services } from "@flagship/api";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { WebSocket } from "ws";

interface Client {
  socket: WebSocket;
  token: string | null;
  userId: number | null;
  teamId: number | null;
  /** Staff sockets also get staff-only events (suspected flag sharing). */
  staff: boolean;
}

/** Sends a prepared buffer as a text frame, as one string would be. */
const TEXT = { binary: false } as const;

const CONNECTED = JSON.stringify({ event_code: EVENT_CODES.connected, message: "Websocket connected." });

/**
 * Close codes the server sends. RESTART (1012, "Service Restart") when a copy shuts down: clients
 * reconnect, and the proxy hands the new connection to another copy. OVER_LIMIT (1008, "Policy
 * Violation") when an address holds too many sockets on this copy.
 */
export const WS_CLOSE = {
  restart: { code: 1012, reason: "Server restarting, reconnect" },
  overLimit: { code: 1008, reason: "Too many connections from this address" },
} as const;

export interface WebsocketOptions {
  /** Origins besides the site's own whose browser clients may connect. */
  allowedOrigins?: readonly string[];
  /** Sockets one client address may hold on this copy at once; 0 for no cap. */
  maxPerIp?: number;
}

/**
 * The websocket at /api/v2/ws/. Event 0 on connect; the client sends {"token"} to join its team's
 * channel. Events for everyone are serialised once and written to every socket; team events go to
 * that team's sockets only. A socket follows its user into a team they join later (event 4).
 */
export async function registerWebsocket(
  app: FastifyInstance,
  services: Services,
  { allowedOrigins = [], maxPerIp = 0 }: WebsocketOptions = {},
): Promise<{ clients: () => number }> {
  const clients = new Set<Client>();
  const perAddress = new Map<string, number>();
  await app.register(websocket, {
    // On shutdown every socket hears it should reconnect (elsewhere), before the copy stops listening.
    preClose(this: FastifyInstance, done) {
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
      const actor = client.token ? await resolveActor(services.db, client.token) : null;
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
    // Serialised and encoded once per event, not per socket: a solve goes to every socket.
    const message = Buffer.from(JSON.stringify(payload));
    const targets = "all" in audience ? clients : "staff" in audience ? [...clients].filter((c) => c.staff) : (byTeam.get(audience.teamId) ?? []);
    for (const client of targets) {
      if (client.socket.readyState === client.socket.OPEN) client.socket.send(message, TEXT);
    }
  });
  app.addHook("onClose", async () => {
    unsubscribe();
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
    const client: Client = { socket, token: null, userId: null, teamId: null, staff: false };
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
  return { clients: () => clients.size };
}

function sameHost(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}
