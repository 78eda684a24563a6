import type { Db } from "@flagship/db";
import { CONFIG_DEFAULTS, CONFIG_SCHEMA, type Config, type ConfigKey, isConfigKey } from "@flagship/shared";

/** How long another server copy's write may stay unseen. The contract allows 1 s. */
const TTL_MS = 500;

/**
 * The configuration, read from the `config` table and cached per process. A write here
 * invalidates at once; writes from other copies arrive by event or within the TTL.
 */
export class ConfigStore {
  private cached: { value: Config; at: number } | null = null;
  private loading: Promise<Config> | null = null;

  constructor(private readonly db: Db) {}

  async all(): Promise<Config> {
    if (this.cached && Date.now() - this.cached.at < TTL_MS) return this.cached.value;
    // One load at a time: a burst of requests at expiry shares one query.
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  async get<K extends ConfigKey>(key: K): Promise<Config[K]> {
    return (await this.all())[key];
  }

  async set<K extends ConfigKey>(key: K, value: Config[K]): Promise<void> {
    const json = value as object;
    await this.db.config.upsert({ where: { key }, create: { key, value: json }, update: { value: json } });
    this.invalidate();
  }

  invalidate(): void {
    this.cached = null;
  }

  private async load(): Promise<Config> {
    const rows = await this.db.config.findMany({ select: { key: true, value: true } });
    const config: Config = { ...CONFIG_DEFAULTS };
    for (const row of rows) {
      if (!isConfigKey(row.key)) continue;
      // A stored value that no longer fits its schema falls back to the default.
      const parsed = CONFIG_SCHEMA[row.key].safeParse(row.value);
      if (parsed.success) (config as Record<string, unknown>)[row.key] = parsed.data;
    }
    this.cached = { value: config, at: Date.now() };
    return config;
  }
}
