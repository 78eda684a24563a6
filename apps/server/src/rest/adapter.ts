import { type Context, createInnerContext, parseAuthorization, resolveActorCached, type Services } from "@flagship/api";
import { AppError, type Page, PAGINATION } from "@flagship/shared";
import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { OIDC_COOKIE, readCookie } from "../oidc-cookie.ts";
import { fail, failWith, ok } from "./envelope.ts";

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface RestRequest {
  ctx: Context;
  body: Record<string, unknown>;
  query: Record<string, string | undefined>;
  params: Record<string, string>;
  request: FastifyRequest;
}

/**
 * What a handler answers: data for the envelope; a raw body sent as is (the CTFtime feed); or a
 * successful envelope already encoded as JSON bytes (hot reads: see `envelopeBytes`).
 */
export type RestResult = { d: unknown; m?: string; status?: number } | { raw: unknown } | { json: Buffer; release?: () => void };

const ENVELOPE_HEAD = Buffer.from('{"s":true,"m":"","d":');
const ENVELOPE_TAIL = Buffer.from("}");

/**
 * Answer buffers for envelopes put together per request (a player's listing, some 74 KB for 100
 * challenges), used again once their answer has gone. Allocated afresh, every answer was memory
 * outside V8's heap, and at thousands of listings a second that external memory alone made V8 run
 * a full collection several times a second in each copy. Bounded: at most POOL_MAX buffers are
 * kept, and a buffer grows (to the next power of two) only when an answer outgrows it.
 */
const POOL_MAX = 64;
const POOL_MIN_BYTES = 16 * 1024;
const pool: Buffer[] = [];

/**
 * A successful envelope around data already encoded as the chunks of one JSON value, in a pooled
 * buffer; `release` hands the buffer back once the answer has been sent (the adapter calls it).
 */
export function envelopeOf(chunks: readonly Buffer[]): { json: Buffer; release: () => void } {
  let length = ENVELOPE_HEAD.length + ENVELOPE_TAIL.length;
  for (const chunk of chunks) length += chunk.length;
  let backing = pool.pop();
  if (!backing || backing.length < length) backing = Buffer.allocUnsafeSlow(Math.max(POOL_MIN_BYTES, 2 ** Math.ceil(Math.log2(length))));
  let at = ENVELOPE_HEAD.copy(backing, 0);
  for (const chunk of chunks) at += chunk.copy(backing, at);
  ENVELOPE_TAIL.copy(backing, at);
  const pooled = backing;
  let released = false;
  return {
    json: pooled.subarray(0, length),
    release: () => {
      if (released) return;
      released = true;
      if (pool.length < POOL_MAX) pool.push(pooled);
    },
  };
}

// Encoded envelopes of maintained read models (own profile and team views, board pages), per
// object: such objects are replaced, never changed, when what they show changes.
const encoded = new WeakMap<object, Buffer>();

/**
 * The successful envelope of an object that is only ever replaced, never changed (a maintained
 * view), encoded once per object and then sent as the same bytes to every reader.
 */
export function envelopeBytes(d: object): { json: Buffer } {
  let json = encoded.get(d);
  if (json === undefined) {
    json = Buffer.from(JSON.stringify({ s: true, m: "", d }));
    encoded.set(d, json);
  }
  return { json };
}

export type RestHandler = (req: RestRequest) => Promise<RestResult> | RestResult;

export interface RouteOptions {
  /**
   * Also takes `multipart/form-data` (read in the handler with `request.parts()`), with these
   * limits; every other path answers such a body 415.
   */
  multipart?: { fileSize: number; files: number; fields: number; fieldSize: number };
}

export interface RestRoutes {
  route(path: string, handlers: Partial<Record<Method, RestHandler>>, options?: RouteOptions): void;
}

// OPTIONS is left to the CORS plugin's preflight handler.
const ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** Builds the request context from the Authorization header; a bad token is authentication_failed. */
export async function contextFor(services: Services, request: FastifyRequest): Promise<Context> {
  const header = request.headers.authorization;
  const actor = await resolveActorCached(services, parseAuthorization(header));
  if (header && actor === null) throw new AppError("authentication_failed");
  return createInnerContext(services, actor, request.ip, readCookie(request.headers.cookie, OIDC_COOKIE));
}

/**
 * Registers REST paths under the current prefix. Every path answers with or without its trailing
 * slash; a method the path does not serve is 405; thrown AppErrors become the envelope in one place.
 */
export function restRoutes(app: FastifyInstance, services: Services): RestRoutes {
  return {
    route(path, handlers, options = {}) {
      const bare = path.replace(/\/$/, "");
      const handler = async (request: FastifyRequest, reply: FastifyReply) => {
        const method = (request.method === "HEAD" ? "GET" : request.method) as Method;
        const handle = handlers[method];
        if (!handle) {
          void reply.header("Allow", Object.keys(handlers).join(", "));
          return fail(reply, "method_not_allowed");
        }
        try {
          const ctx = await contextFor(services, request);
          const result = await handle({
            ctx,
            body: isRecord(request.body) ? request.body : {},
            query: request.query as Record<string, string | undefined>,
            params: request.params as Record<string, string>,
            request,
          });
          if ("raw" in result) return reply.code(200).send(result.raw);
          if ("json" in result) {
            // A pooled buffer goes back once the answer has left (or the connection has gone).
            if (result.release) reply.raw.once("close", result.release);
            return reply.code(200).type("application/json; charset=utf-8").send(result.json);
          }
          return ok(reply, result.d, { ...(result.m !== undefined && { m: result.m }), ...(result.status !== undefined && { status: result.status }) });
        } catch (error) {
          if (error instanceof AppError) return failWith(reply, error);
          throw error;
        }
      };
      const register = (scope: FastifyInstance) => {
        scope.route({ method: ALL_METHODS, url: bare || "/", handler });
        if (bare) scope.route({ method: ALL_METHODS, url: `${bare}/`, handler });
      };
      const { multipart } = options;
      if (!multipart) return register(app);
      // The form parser lives in a scope of this path's own, so no other path reads forms.
      void app.register(async (scope) => {
        await scope.register(fastifyMultipart, {
          // A file over the limit is cut there rather than thrown: the handler's own limit then
          // refuses it with the documented answer.
          throwFileSizeLimit: false,
          limits: { ...multipart, parts: multipart.files + multipart.fields },
        });
        register(scope);
      });
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The contract's paged list: `{count, total, next, previous, results}` with absolute URLs. */
export function pageBody<T>(request: FastifyRequest, page: Page<T>, input: { limit: number; offset: number }) {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  const at = (offset: number) => {
    const next = new URL(url);
    next.searchParams.set("limit", String(input.limit));
    next.searchParams.set("offset", String(offset));
    return next.toString();
  };
  return {
    count: page.count,
    total: page.total,
    next: input.offset + input.limit < page.count ? at(input.offset + input.limit) : null,
    previous: input.offset > 0 ? at(Math.max(0, input.offset - input.limit)) : null,
    results: page.results,
  };
}

export { PAGINATION };
