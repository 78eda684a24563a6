import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/client.ts";

export type Db = PrismaClient;

export interface CreateDbOptions {
  /** Connections in this process's pool. */
  poolSize?: number;
  /** Called with every SQL statement sent, for tests that bound how many queries an operation costs. */
  onQuery?: (sql: string) => void;
}

/** A database client's connection pool right now, and the statements and connections that failed since it was made. */
export interface DatabasePoolStats {
  /** Connections open (busy and idle). */
  open: number;
  idle: number;
  /** Queries waiting for a connection because all `max` are busy. */
  waiting: number;
  max: number;
  /**
   * Failures by SQLSTATE class (the code's first two characters: "23" a constraint, "08" the
   * connection, "57" the server shutting down...), and "connection" for a connection that could not
   * be opened at all (no SQLSTATE: refused, reset, timed out). A bounded set, fit for a metric's label.
   */
  errors: Map<string, number>;
}

const pools = new WeakMap<Db, { pool: pg.Pool; errors: Map<string, number> }>();

/** The pool behind `db` (made by createDb), for metrics; undefined for a client made otherwise. */
export function databasePoolStats(db: Db): DatabasePoolStats | undefined {
  const entry = pools.get(db);
  if (!entry) return undefined;
  const { pool, errors } = entry;
  return { open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10, errors };
}

type Callback = (error: Error | null, ...rest: unknown[]) => void;

/**
 * pg's client with its failures counted: the pool makes every connection from it, and both the
 * adapter's pooled queries (callback form, through the pool) and its transactions (promise form,
 * on a checked-out connection) go through `query`, so every failed statement is seen once.
 */
function countingClient(errors: Map<string, number>): typeof pg.Client {
  const note = (error: unknown, fallback: string) => {
    const code = (error as { code?: unknown }).code;
    const key = typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code.slice(0, 2) : fallback;
    errors.set(key, (errors.get(key) ?? 0) + 1);
  };
  const watch = (result: unknown, fallback: string) => {
    if (result instanceof Promise) result.catch((error: unknown) => note(error, fallback));
    return result;
  };
  const withCallback = (args: unknown[], fallback: string): boolean => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback !== "function") return false;
    args[last] = (error: Error | null, ...rest: unknown[]) => {
      if (error) note(error, fallback);
      (callback as Callback)(error, ...rest);
    };
    return true;
  };
  return class CountingClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      const query = this.query.bind(this) as (...args: unknown[]) => unknown;
      const connect = this.connect.bind(this) as (...args: unknown[]) => unknown;
      // An error without a SQLSTATE from a query is a lost connection (reset, ended, timed out).
      Object.assign(this, {
        query: (...args: unknown[]) => (withCallback(args, "connection") ? query(...args) : watch(query(...args), "connection")),
        connect: (...args: unknown[]) => (withCallback(args, "connection") ? connect(...args) : watch(connect(...args), "connection")),
      });
    }
  };
}

export function createDb(connectionString: string, options: CreateDbOptions = {}): Db {
  const errors = new Map<string, number>();
  const pool = new pg.Pool({ connectionString, max: options.poolSize ?? 10, Client: countingClient(errors) });
  // The pool is ours (made here for its counts): the client's $disconnect ends it.
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  let db: Db;
  if (!options.onQuery) db = new PrismaClient({ adapter });
  else {
    const onQuery = options.onQuery;
    const logging = new PrismaClient({ adapter, log: [{ emit: "event", level: "query" }] });
    logging.$on("query", (event) => onQuery(event.query));
    db = logging as unknown as PrismaClient;
  }
  pools.set(db, { pool, errors });
  return db;
}
