import type { UnlockNode } from "@flagship/shared";

/** What a player may know of a challenge an unlock expression names. */
export type Seen = { kind: "named"; name: string } | { kind: "locked" } | { kind: "hidden" };

export interface UnlockWords {
  /** Joins parts with "and" (all) or "or" (any). */
  list(parts: string[], kind: "all" | "any"): string;
  /** `count` challenges the player may not name, hidden or locked, in an all or any group. */
  unnamed(which: "hidden" | "locked", count: number, kind: "all" | "any"): string;
}

/**
 * An unlock expression in words: the names the player may see, the rest counted as hidden or
 * locked challenges (never named), mixed groups in parentheses.
 */
export function describeUnlock(node: UnlockNode, seen: (id: number) => Seen, words: UnlockWords): string {
  if (node.kind === "id") {
    const s = seen(node.id);
    return s.kind === "named" ? `“${s.name}”` : words.unnamed(s.kind, 1, "all");
  }
  const parts: string[] = [];
  const unnamed = { locked: 0, hidden: 0 };
  for (const child of node.of) {
    if (child.kind !== "id") {
      parts.push(`(${describeUnlock(child, seen, words)})`);
      continue;
    }
    const s = seen(child.id);
    if (s.kind === "named") parts.push(`“${s.name}”`);
    else unnamed[s.kind] += 1;
  }
  for (const which of ["locked", "hidden"] as const) if (unnamed[which] > 0) parts.push(words.unnamed(which, unnamed[which], node.kind));
  return parts.length === 1 ? (parts[0] as string) : words.list(parts, node.kind);
}
