import { AppError, ERRORS, type ErrorCode } from "@flagship/shared";
import type { FastifyReply } from "fastify";

export interface Envelope {
  s: boolean;
  m: string;
  d: unknown;
}

export function ok(reply: FastifyReply, d: unknown, options: { m?: string; status?: number } = {}): FastifyReply {
  return reply.code(options.status ?? 200).send({ s: true, m: options.m ?? "", d } satisfies Envelope);
}

export function fail(reply: FastifyReply, code: ErrorCode, d: unknown = ""): FastifyReply {
  return reply.code(ERRORS[code].status).send({ s: false, m: code, d } satisfies Envelope);
}

export function failWith(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.retryAfter !== undefined) void reply.header("Retry-After", String(error.retryAfter));
  return fail(reply, error.code, error.details);
}
