export { createDb, databasePoolStats, type DatabasePoolStats, type Db } from "./client.ts";
export { connectDatabase, ensureDatabase, type Database } from "./connect.ts";
export { startEmbeddedPostgres, databaseUrl, freePort, EmbeddedPostgresError, type EmbeddedDatabase } from "./embedded.ts";
export { applyMigrations, readMigrations, MIGRATIONS_DIR } from "./migrate.ts";
export { Prisma } from "./generated/client.ts";
export type * from "./generated/models.ts";
export { isDatabaseUnavailable, isTransactionConflict, isTransactionTimeout, isUniqueViolation, uniqueViolationModel } from "./errors.ts";
