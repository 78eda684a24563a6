/** The answers; blank lines (which staff may be typing) only count in the editor. */
export function choicesOf(metadata: Record<string, unknown>, keepBlank = false): string[] {
  const all = Array.isArray(metadata.choices) ? metadata.choices.filter((c): c is string => typeof c === "string") : [];
  return keepBlank ? all : all.filter((c) => c.trim() !== "");
}
