import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  CONFIG_DEFAULTS,
  offersSignUp,
  difficultyLabel,
  entitySlug,
  eventGates,
  formatFileSize,
  parseConfigValue,
  parseInput,
  ratingPercent,
  slugify,
  ZPageInput,
} from "./index.ts";

describe("difficultyLabel", () => {
  it.each([
    [0, null],
    [49, null],
    [50, "Trivial"],
    [100, "Easy"],
    [199, "Easy"],
    [200, "Medium"],
    [500, "Hard"],
    [1000, "Insane"],
    [5000, "Insane"],
  ])("%i -> %s", (score, label) => expect(difficultyLabel(score)).toBe(label));
});

describe("ratingPercent", () => {
  it("is the positive share rounded to 0.1", () => {
    expect(ratingPercent(2, 1)).toBe(66.7);
    expect(ratingPercent(1, 0)).toBe(100);
    expect(ratingPercent(0, 0)).toBeNull();
  });
});

describe("slugs", () => {
  it("collapses runs of non-alphanumerics to one dash", () => {
    expect(slugify("Web  Exploitation!!")).toBe("web-exploitation");
    expect(slugify("  Crypto / RSA 101 ")).toBe("crypto-rsa-101");
  });
  it("prefers the metadata slug, then the name, then the id", () => {
    expect(entitySlug({ id: 3, name: "Web", metadataSlug: "webby" })).toBe("webby");
    expect(entitySlug({ id: 3, name: "Web" })).toBe("web");
    expect(entitySlug({ id: 3, name: "!!!" })).toBe("3");
  });
});

describe("formatFileSize", () => {
  it("uses Bytes up to YB", () => {
    expect(formatFileSize(0)).toBe("0 Bytes");
    expect(formatFileSize(512)).toBe("512 Bytes");
    expect(formatFileSize(1536)).toBe("1.5 KB");
    expect(formatFileSize(1024 ** 8 * 2)).toBe("2 YB");
  });
});

describe("config values", () => {
  it("has a default for every key", () => {
    expect(CONFIG_DEFAULTS.flag_prefix).toBe("flag");
    expect(CONFIG_DEFAULTS.enable_flag_submission_after_competition).toBe(false);
  });
  it("validates by key", () => {
    expect(parseConfigValue("team_size", 4)).toBe(4);
    expect(() => parseConfigValue("team_size", -1)).toThrow();
    expect(parseConfigValue("start_time", null)).toBeNull();
    expect(() => parseConfigValue("firstblood_webhook", "javascript:alert(1)")).toThrow();
  });
});

describe("eventGates", () => {
  const base = { start_time: null, end_time: null, register_start_time: null, register_end_time: null };
  it("treats null times as no gate", () => {
    expect(eventGates(base, 100)).toEqual({ registrationOpen: true, started: true, ended: false });
  });
  it("judges each gate against now", () => {
    const gates = eventGates({ ...base, start_time: 200, end_time: 300, register_start_time: 50, register_end_time: 250 }, 100);
    expect(gates).toEqual({ registrationOpen: true, started: false, ended: false });
    expect(eventGates({ ...base, end_time: 300 }, 300).ended).toBe(true);
  });
  it("offers sign-up while registration is open, and after the end only when kept open on purpose", () => {
    expect(offersSignUp({ ...base, enable_registration: true }, 100)).toBe(true);
    expect(offersSignUp({ ...base, enable_registration: false }, 100)).toBe(false);
    expect(offersSignUp({ ...base, register_start_time: 200 }, 100)).toBe(false);
    expect(offersSignUp({ ...base, end_time: 50 }, 100)).toBe(false);
    expect(offersSignUp({ ...base, end_time: 50, register_end_time: 500 }, 100)).toBe(true);
  });
});

describe("parseInput", () => {
  const schema = z.object({ name: z.string().trim().min(1).max(5), age: z.number().int().max(10) });
  it("reports required, blank, max_length and max_value with the first code as the message code", () => {
    const cases: [unknown, string, string][] = [
      [{ age: 1 }, "required", "name"],
      [{ name: "   ", age: 1 }, "blank", "name"],
      [{ name: "toolong", age: 1 }, "max_length", "name"],
      [{ name: "ok", age: 11 }, "max_value", "age"],
      [{ name: "ok", age: "x" }, "invalid", "age"],
    ];
    for (const [input, code, field] of cases) {
      try {
        parseInput(schema, input);
        expect.unreachable();
      } catch (error) {
        expect(error).toMatchObject({ code, details: { [field]: [expect.any(String)] } });
      }
    }
  });
});

describe("ZPageInput", () => {
  it("defaults to 100 and clamps at 1000", () => {
    expect(ZPageInput.parse({})).toEqual({ limit: 100, offset: 0 });
    expect(ZPageInput.parse({ limit: "5000", offset: "20" })).toEqual({ limit: 1000, offset: 20 });
  });
});
