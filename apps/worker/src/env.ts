import { z } from "zod";

const EnvSchema = z.object({
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: "must be a URL like redis://127.0.0.1:6379" }),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a URL like postgresql://user:pass@host:5432/db" }),
  DOCKER_HOST: z.string().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
});

export type WorkerEnv = z.infer<typeof EnvSchema>;

/** The worker's settings, validated once at start-up. */
export function loadWorkerEnv(source: Record<string, string | undefined> = process.env): WorkerEnv {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid settings in the environment:\n${lines.join("\n")}`);
  }
  return result.data;
}
