import { describe, expect, it } from "vitest";
import { defaultHomeContent, escapeMarkdown, fillFields, splitHome } from "./home-template.ts";

describe("home page template", () => {
  it("splits markdown around blocks that stand on their own line", () => {
    expect(splitHome("# Hi\n\n{{countdown}}\nText {{categories}} inline\n  {{ categories }}  \n")).toEqual([
      { kind: "markdown", text: "# Hi\n" },
      { kind: "block", block: "countdown" },
      { kind: "markdown", text: "Text {{categories}} inline" },
      { kind: "block", block: "categories" },
    ]);
  });

  it("leaves blocks inside code fences and unknown names as text", () => {
    expect(splitHome("```\n{{countdown}}\n```\n{{nope}}")).toEqual([{ kind: "markdown", text: "```\n{{countdown}}\n```\n{{nope}}" }]);
  });

  it("fills fields anywhere, escaped for markdown", () => {
    const values = { event_name: "*Pwn* [CTF]", start: "1 June", end: "2 June" };
    expect(fillFields("# {{event_name}}\nFrom {{ start }} to {{end}}, {{other}}", values)).toBe("# \\*Pwn\\* \\[CTF\\]\nFrom 1 June to 2 June, {{other}}");
    expect(escapeMarkdown("a-b.c")).toBe("a\\-b\\.c");
  });

  it("builds the default page from the event's settings, dates only when set", () => {
    const withDates = defaultHomeContent({ intro: "Welcome.", dates: "From {{start}} to {{end}}.", categories: "Categories" });
    expect(withDates).toBe("# {{event_name}}\n\nWelcome.\n\nFrom {{start}} to {{end}}.\n\n{{countdown}}\n\n{{actions}}\n\n## Categories\n\n{{categories}}");
    expect(defaultHomeContent({ intro: "Welcome.", dates: null, categories: "Categories" })).not.toContain("{{start}}");
  });
});
