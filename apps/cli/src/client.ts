import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { type CliEnv, readEnv } from "./env.ts";

/** A failure the command reports and exits on, with the exit status for scripts. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
  }
}

/** Exit statuses: 1 problems in the repository, 2 usage or settings, 3 the server refused or failed. */
export const EXIT = { problems: 1, usage: 2, server: 3 } as const;

export interface Envelope<T> {
  s: boolean;
  m: string;
  d: T;
}

/** The server's answer to a refused request, worded for a person. */
function describeFailure(method: string, pathname: string, status: number, body: Envelope<unknown> | null): string {
  if (!body) return `${method} ${pathname} answered HTTP ${status}.`;
  const details = body.d;
  let detail = "";
  if (details && typeof details === "object") {
    detail = Object.entries(details as Record<string, unknown>)
      .map(([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.join(" ") : String(messages)}`)
      .join("; ");
  } else if (typeof details === "string" && details !== "") detail = details;
  if (status === 401) return `The server did not accept the token (${body.m}). Set FLAGSHIP_TOKEN to a staff login token or a personal access token from your settings.`;
  if (body.m === "sync_in_progress" && details && typeof details === "object") {
    const lease = details as { username?: string; holder?: string; since?: string; expires_at?: string };
    return `Another challenge sync is running, started by ${lease.username ?? "someone"}${lease.holder ? ` (${lease.holder})` : ""} at ${lease.since ?? "?"}; nothing was changed. Try again once it has finished (its lease runs out at ${lease.expires_at ?? "?"} if it stopped without ending).`;
  }
  if (body.m === "sync_lease_lost") return "This sync's lease ran out (the server did not hear from it for too long), so another sync may have started; it stopped before writing more.";
  if (status === 403 && body.m === "permission_denied") return `${method} ${pathname}: the token's account is not staff (permission_denied).`;
  return `${method} ${pathname} was refused: ${body.m}${detail ? ` (${detail})` : ""}.`;
}

/** A thin client of /api/v2 with a token; every answer is the contract's envelope. */
export class Api {
  /** How many writes were sent: a sync that changes nothing sends none. */
  writes = 0;

  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private url(pathname: string): string {
    return `${this.baseUrl}/api/v2${pathname}`;
  }

  async request<T>(method: string, pathname: string, body?: unknown): Promise<T> {
    if (method !== "GET") this.writes += 1;
    let response: Response;
    try {
      response = await fetch(this.url(pathname), {
        method,
        headers: { authorization: `Token ${this.token}`, ...(body !== undefined && { "content-type": "application/json" }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new CliError(`Cannot reach ${this.baseUrl}: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`, EXIT.server);
    }
    let parsed: Envelope<T> | null = null;
    try {
      parsed = (await response.json()) as Envelope<T>;
    } catch {
      parsed = null;
    }
    if (!response.ok || !parsed || parsed.s !== true) throw new CliError(describeFailure(method, pathname, response.status, parsed), EXIT.server);
    return parsed.d;
  }

  get<T>(pathname: string): Promise<T> {
    return this.request<T>("GET", pathname);
  }

  /** Uploads a file's bytes (streamed, reporting progress); answers its stored url and size. */
  async upload(name: string, size: number, stream: Readable, onBytes: (n: number) => void): Promise<{ name: string; url: string; size: number }> {
    this.writes += 1;
    stream.on("data", (chunk: Buffer) => onBytes(chunk.length));
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/files/upload?name=${encodeURIComponent(name)}`, {
        method: "POST",
        headers: { authorization: `Token ${this.token}`, "content-type": "application/octet-stream", "content-length": String(size) },
        body: Readable.toWeb(stream) as ReadableStream,
        duplex: "half",
      } as RequestInit);
    } catch (error) {
      throw new CliError(`Uploading ${name} failed: ${(error as Error).message}`, EXIT.server);
    }
    const parsed = (await response.json().catch(() => null)) as Envelope<{ name: string; url: string; size: number }> | null;
    if (!response.ok || !parsed?.s) throw new CliError(describeFailure("POST", "/files/upload", response.status, parsed), EXIT.server);
    return parsed.d;
  }

  /**
   * The largest upload the server accepts (GET /files/upload), or null from a server too old to
   * say; the sync then leaves the size to the upload itself.
   */
  async uploadLimit(): Promise<number | null> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/files/upload`, { headers: { authorization: `Token ${this.token}` } });
    } catch (error) {
      throw new CliError(`Cannot reach ${this.baseUrl}: ${(error as Error).message}`, EXIT.server);
    }
    if (response.status === 404) return null;
    const parsed = (await response.json().catch(() => null)) as Envelope<{ max_bytes: number }> | null;
    if (!response.ok || !parsed?.s) throw new CliError(describeFailure("GET", "/files/upload", response.status, parsed), EXIT.server);
    return parsed.d.max_bytes;
  }

  /** The SHA-256 of a stored file, hashed as it streams in (a large file is never held in memory). */
  async downloadHash(url: string): Promise<string> {
    const absolute = url.startsWith("/") ? `${this.baseUrl}${url}` : url;
    const response = await fetch(absolute, { headers: { authorization: `Token ${this.token}` } });
    if (!response.ok || !response.body) throw new CliError(`Downloading ${url} answered HTTP ${response.status}.`, EXIT.server);
    const hash = createHash("sha256");
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
    return hash.digest("hex");
  }

  /** The bytes of a stored file (a site path such as /files/key/name, or an absolute URL). */
  async download(url: string): Promise<Buffer> {
    const absolute = url.startsWith("/") ? `${this.baseUrl}${url}` : url;
    const response = await fetch(absolute, { headers: { authorization: `Token ${this.token}` } });
    if (!response.ok) throw new CliError(`Downloading ${url} answered HTTP ${response.status}.`, EXIT.server);
    return Buffer.from(await response.arrayBuffer());
  }
}

/** The server and token from the options and environment; a clear error when either is missing. */
export function connect(options: { url?: string }, env: CliEnv = readEnv()): Api {
  const url = options.url ?? env.FLAGSHIP_URL;
  if (!url) throw new CliError("Give the server's address with --url or FLAGSHIP_URL (for example http://127.0.0.1:8080).", EXIT.usage);
  if (!/^https?:\/\/[^/\s]+/i.test(url)) throw new CliError(`"${url}" is not an http or https address.`, EXIT.usage);
  const token = env.FLAGSHIP_TOKEN;
  if (!token) throw new CliError("Set FLAGSHIP_TOKEN to a staff login token or a personal access token (Settings, Personal access tokens).", EXIT.usage);
  return new Api(url.replace(/\/+$/, "").replace(/\/api\/v2$/, ""), token.trim());
}
