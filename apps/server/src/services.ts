import { readFileSync } from "node:fs";
import { ConfigStore, type EventPublisher, InProcessPublisher, type Logger, type Services } from "@flagship/api";
import type { Db } from "@flagship/db";

const VERSION: string = (
  JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

export function createServices(options: { db: Db; log: Logger; events?: EventPublisher }): Services {
  const events = options.events ?? new InProcessPublisher();
  const config = new ConfigStore(options.db);
  // Another server copy changed the config: drop our cached copy at once.
  events.subscribe((event) => {
    if (event.kind === "internal" && event.name === "config_changed") config.invalidate();
  });
  return {
    db: options.db,
    events,
    config,
    log: options.log,
    version: VERSION,
    now: () => Math.floor(Date.now() / 1000),
  };
}
