export * from "./errors.ts";
export * from "./config.ts";
export * from "./validation.ts";
export * from "./constants.ts";
export * from "./pagination.ts";
export * from "./auth.ts";
export * from "./teams.ts";
export * from "./profiles.ts";
