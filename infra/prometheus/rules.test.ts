import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The stack's Prometheus configuration and alert rules, checked by Prometheus' own promtool
 * (Debian's `prometheus` package): both parse, and the alerts fire on the series they are for and
 * stay quiet otherwise (alerts.test.yml).
 */

const DIR = fileURLToPath(new URL(".", import.meta.url));

function promtool(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync("promtool", args, { cwd: DIR, encoding: "utf8" });
  if (result.error) throw new Error(`promtool is needed (Debian: apt-get install prometheus): ${result.error.message}`);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("the stack's Prometheus", () => {
  it("has a valid configuration and valid alert rules", () => {
    const config = promtool("check", "config", "prometheus.yml");
    expect(config.output).toContain("SUCCESS");
    expect(config.status).toBe(0);
    const rules = promtool("check", "rules", "alerts.yml");
    expect(rules.status, rules.output).toBe(0);
  });

  it("fires each tested alert on its series, and no other", () => {
    const tests = promtool("test", "rules", "alerts.test.yml");
    expect(tests.status, tests.output).toBe(0);
  });

  it("gives every alert a runbook line in infra/README.md", () => {
    const rules = readFileSync(`${DIR}/alerts.yml`, "utf8");
    const readme = readFileSync(`${DIR}/../README.md`, "utf8");
    const names = [...rules.matchAll(/- alert: (\w+)/g)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      expect(rules).toContain(`runbook: "infra/README.md#${name.toLowerCase()}"`);
      expect(readme).toMatch(new RegExp(`^#### ${name}\\n\\n\\S`, "m"));
    }
  });
});
