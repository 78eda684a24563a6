export { createTestDatabase, type TestDatabase } from "./database.ts";
export { uniqueName } from "./unique.ts";
export { testRedisUrl } from "./redis.ts";
