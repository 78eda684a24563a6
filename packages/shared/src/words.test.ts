import { describe, expect, it } from "vitest";
import { spellOut } from "./words.ts";

describe("stored identifiers spelled out for staff", () => {
  it("splits camelCase, snake_case and kebab-case into a sentence-case phrase", () => {
    expect(spellOut("multipleChoice")).toBe("Multiple choice");
    expect(spellOut("long_text")).toBe("Long text");
    expect(spellOut("set-config")).toBe("Set config");
    expect(spellOut("healthy")).toBe("Healthy");
  });

  it("keeps acronyms whole", () => {
    expect(spellOut("importJSONFile")).toBe("Import JSON file");
    expect(spellOut("SQLInjection")).toBe("SQL injection");
  });

  it("leaves nothing to show for an empty identifier", () => {
    expect(spellOut("")).toBe("");
    expect(spellOut("__")).toBe("");
  });
});
