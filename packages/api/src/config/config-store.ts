import type { Db } from "@flagship/db";
import { CONFIG_DEFAULTS, CONFIG_SCHEMA, type Config, type ConfigKey, isConfigKey } from "@flagship/shared";

/** After this long the configuration is read again, in the background. */
const TTL_MS = 500;
/** How long another server copy's write may stay unseen (without its event). The contract allows 1 s. */
const MAX_AGE_MS = 1000;

interface Snapshot {
  config: Config;
  unknown: Record<string, unknown>;
}

/**
 * The configuration, read from the `config` table and cached per process. A write here
 * invalidates at once; writes from other copies arrive by event or within MAX_AGE_MS.
 *
 * Every request reads the configuration, so a read never waits for the database while the cached
 * copy is younger than MAX_AGE_MS: past TTL_MS it is served as it is while one background load
 * refreshes it. Under load, when a pool connection takes a while, requests would otherwise all
 * queue behind that load twice a second.
 */
export class ConfigStore {
  private cached: { value: Snapshot; at: number } | null = null;
  private loading: Promise<Snapshot> | null = null;
  private generation = 0;

  constructor(private readonly db: Db) {}

  async all(): Promise<Config> {
    return (await this.snapshot()).config;
  }

  async get<K extends ConfigKey>(key: K): Promise<Config[K]> {
    return (await this.all())[key];
  }

  /**
   * The keys stored that Flagship does not know, as given (upstream stores any key, and RACTF's
   * client saves some we have no use for): returned with the configuration, never read by us.
   */
  async unknownKeys(): Promise<Record<string, unknown>> {
    return (await this.snapshot()).unknown;
  }

  private async snapshot(): Promise<Snapshot> {
    const cached = this.cached;
    const age = cached ? Date.now() - cached.at : Infinity;
    if (cached && age < TTL_MS) return cached.value;
    // One load at a time: a burst of requests at expiry shares one query.
    let loading = this.loading;
    if (!loading) {
      const started: Promise<Snapshot> = this.load().finally(() => {
        if (this.loading === started) this.loading = null;
      });
      this.loading = loading = started;
    }
    if (cached && age < MAX_AGE_MS) {
      // Failures are seen by the next reader that has to wait for a load.
      loading.catch(() => {});
      return cached.value;
    }
    return loading;
  }

  async set<K extends ConfigKey>(key: K, value: Config[K]): Promise<void> {
    const json = value as object;
    await this.db.config.upsert({ where: { key }, create: { key, value: json }, update: { value: json } });
    this.invalidate();
  }

  /** After a write: the next read loads afresh (not from a load that began before the write). */
  invalidate(): void {
    this.generation += 1;
    this.cached = null;
    this.loading = null;
  }

  private async load(): Promise<Snapshot> {
    const generation = this.generation;
    const rows = await this.db.config.findMany({ select: { key: true, value: true } });
    const config: Config = { ...CONFIG_DEFAULTS };
    const unknown: Record<string, unknown> = {};
    for (const row of rows) {
      if (!isConfigKey(row.key)) {
        unknown[row.key] = row.value;
        continue;
      }
      // A stored value that no longer fits its schema falls back to the default.
      const parsed = CONFIG_SCHEMA[row.key].safeParse(row.value);
      if (parsed.success) (config as Record<string, unknown>)[row.key] = parsed.data;
    }
    // A load that raced with a write may predate it: used by its readers, never kept.
    const snapshot = { config, unknown };
    if (generation === this.generation) this.cached = { value: snapshot, at: Date.now() };
    return snapshot;
  }
}
