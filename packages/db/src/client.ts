import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.ts";

export type Db = PrismaClient;

export interface CreateDbOptions {
  /** Connections in this process's pool. */
  poolSize?: number;
  /** Called with every SQL statement sent, for tests that bound how many queries an operation costs. */
  onQuery?: (sql: string) => void;
}

export function createDb(connectionString: string, options: CreateDbOptions = {}): Db {
  const adapter = new PrismaPg({ connectionString, max: options.poolSize ?? 10 });
  if (!options.onQuery) return new PrismaClient({ adapter });
  const onQuery = options.onQuery;
  const db = new PrismaClient({ adapter, log: [{ emit: "event", level: "query" }] });
  db.$on("query", (event) => onQuery(event.query));
  return db as unknown as PrismaClient;
}
