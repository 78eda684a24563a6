import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
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

  it("has a Grafana dashboard whose every query is valid PromQL", () => {
    const dashboard = JSON.parse(readFileSync(`${DIR}/../grafana/flagship-dashboard.json`, "utf8")) as {
      __inputs: { name: string }[];
      panels: { type: string; targets?: { expr: string }[] }[];
    };
    // Importable as is: Grafana asks for the Prometheus data source the panels name.
    expect(dashboard.__inputs.map((input) => input.name)).toEqual(["DS_PROMETHEUS"]);
    const queries = dashboard.panels.flatMap((panel) => panel.targets ?? []).map((target) => target.expr);
    expect(queries.length).toBeGreaterThan(20);
    // Each query as a recording rule, Grafana's interval variables as what they stand for.
    const rules = {
      groups: [{ name: "dashboard", rules: queries.map((expr, i) => ({ record: `dashboard:query_${i}`, expr: expr.replaceAll("$__rate_interval", "1m").replaceAll("$__range", "1h") })) }],
    };
    const dir = mkdtempSync(path.join(os.tmpdir(), "flagship-dashboard-"));
    try {
      writeFileSync(path.join(dir, "queries.yml"), JSON.stringify(rules));
      const checked = promtool("check", "rules", path.join(dir, "queries.yml"));
      expect(checked.status, checked.output).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
