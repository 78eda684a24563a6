/**
 * The home page staff write is markdown with placeholders. Fields (`{{event_name}}`, `{{start}}`,
 * `{{end}}`) are filled anywhere in the text; blocks (`{{countdown}}`, `{{categories}}`,
 * `{{actions}}`) stand alone on a line and are drawn as components between the markdown around them.
 */
export const HOME_FIELDS = ["event_name", "start", "end"] as const;
export const HOME_BLOCKS = ["countdown", "categories", "actions"] as const;
export type HomeField = (typeof HOME_FIELDS)[number];
export type HomeBlock = (typeof HOME_BLOCKS)[number];

export type HomeSegment = { kind: "markdown"; text: string } | { kind: "block"; block: HomeBlock };

const BLOCK_LINE = new RegExp(`^\\s*\\{\\{\\s*(${HOME_BLOCKS.join("|")})\\s*\\}\\}\\s*$`);
const FENCE = /^\s*(```|~~~)/;

/** Splits the page into markdown and blocks; a block's name inside a code fence stays text. */
export function splitHome(content: string): HomeSegment[] {
  const segments: HomeSegment[] = [];
  let text: string[] = [];
  let fenced = false;
  const flush = () => {
    const joined = text.join("\n");
    if (joined.trim() !== "") segments.push({ kind: "markdown", text: joined });
    text = [];
  };
  for (const line of content.split(/\r?\n/)) {
    if (FENCE.test(line)) fenced = !fenced;
    const block = fenced ? null : BLOCK_LINE.exec(line);
    if (block) {
      flush();
      segments.push({ kind: "block", block: block[1] as HomeBlock });
    } else {
      text.push(line);
    }
  }
  flush();
  return segments;
}

/** Markdown's special characters in a value, escaped so an event called `*Pwn*` is not drawn in italics. */
export function escapeMarkdown(value: string): string {
  return value.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);
}

const FIELD = new RegExp(`\\{\\{\\s*(${HOME_FIELDS.join("|")})\\s*\\}\\}`, "g");

/** The text with each field filled from `values` (escaped); unknown placeholders are left as typed. */
export function fillFields(text: string, values: Record<HomeField, string>): string {
  return text.replace(FIELD, (_, name: HomeField) => escapeMarkdown(values[name]));
}

/**
 * The home page of an event whose staff have not written one, from its settings: its name, its
 * dates when set, the countdown, how to take part, and its categories.
 */
export function defaultHomeContent(texts: { intro: string; dates: string | null; categories: string }): string {
  return ["# {{event_name}}", texts.intro, texts.dates, "{{countdown}}", "{{actions}}", `## ${texts.categories}`, "{{categories}}"].filter((part) => part !== null).join("\n\n");
}
