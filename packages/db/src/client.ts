import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.ts";

export type Db = PrismaClient;

export interface CreateDbOptions {
  /** Connections in this process's pool. */
  poolSize?: number;
}

export function createDb(connectionString: string, options: CreateDbOptions = {}): Db {
  const adapter = new PrismaPg({ connectionString, max: options.poolSize ?? 10 });
  return new PrismaClient({ adapter });
}
