/**
 * Unlock requirements: a postfix expression over whitespace-separated tokens. A challenge id pushes
 * "the team solved it"; AND and OR pop two values and push the result. Empty (or null) means
 * unlocked. An expression is valid only when it leaves exactly one value on the stack.
 *
 * The server evaluates it to gate submissions and hints; the web client evaluates the same code to
 * draw locked tiles, and the staff editor shows the same messages the server answers with.
 */

export type UnlockToken = { kind: "id"; id: number } | { kind: "op"; op: "AND" | "OR" };

export type ParsedUnlock = { ok: true; tokens: UnlockToken[] } | { ok: false; message: string };

export const UNLOCK_MESSAGES = {
  needsOperands: (op: string) => `Binary operation '${op}' needs two operands`,
  invalidOpcode: (token: string) => `Invalid opcode '${token}'`,
  exhausted: "Stack exhausted. Nothing to do.",
  trailing: "Stack contains trailing data",
} as const;

/** True for the empty (or null) expression, which means "no requirement". */
export function isEmptyUnlock(expression: string | null | undefined): boolean {
  return expression === null || expression === undefined || expression === "";
}

/** Parses and checks an expression; `tokens` is empty for the empty expression. */
export function parseUnlock(expression: string | null | undefined): ParsedUnlock {
  if (isEmptyUnlock(expression)) return { ok: true, tokens: [] };
  const words = (expression as string).split(/\s+/).filter((w) => w.length > 0);
  const tokens: UnlockToken[] = [];
  let depth = 0;
  for (const word of words) {
    if (/^\d+$/.test(word)) {
      const id = Number(word);
      if (!Number.isSafeInteger(id)) return { ok: false, message: UNLOCK_MESSAGES.invalidOpcode(word) };
      tokens.push({ kind: "id", id });
      depth += 1;
    } else if (word === "AND" || word === "OR") {
      if (depth < 2) return { ok: false, message: UNLOCK_MESSAGES.needsOperands(word) };
      tokens.push({ kind: "op", op: word });
      depth -= 1;
    } else {
      return { ok: false, message: UNLOCK_MESSAGES.invalidOpcode(word) };
    }
  }
  if (depth === 0) return { ok: false, message: UNLOCK_MESSAGES.exhausted };
  if (depth > 1) return { ok: false, message: UNLOCK_MESSAGES.trailing };
  return { ok: true, tokens };
}

/** The error message for an invalid expression, or null when it is valid. */
export function unlockError(expression: string | null | undefined): string | null {
  const parsed = parseUnlock(expression);
  return parsed.ok ? null : parsed.message;
}

/**
 * Whether a team that solved the challenges in `solved` has unlocked a challenge with this
 * expression. An invalid expression (which staff cannot save) unlocks nothing.
 */
export function isUnlocked(expression: string | null | undefined, solved: ReadonlySet<number>): boolean {
  const parsed = parseUnlock(expression);
  if (!parsed.ok) return false;
  if (parsed.tokens.length === 0) return true;
  const stack: boolean[] = [];
  for (const token of parsed.tokens) {
    if (token.kind === "id") {
      stack.push(solved.has(token.id));
    } else {
      const right = stack.pop() as boolean;
      const left = stack.pop() as boolean;
      stack.push(token.op === "AND" ? left && right : left || right);
    }
  }
  return stack[0] === true;
}

/** The challenge ids an expression mentions, in order of first appearance. */
export function unlockChallengeIds(expression: string | null | undefined): number[] {
  const parsed = parseUnlock(expression);
  if (!parsed.ok) return [];
  const ids: number[] = [];
  for (const token of parsed.tokens) if (token.kind === "id" && !ids.includes(token.id)) ids.push(token.id);
  return ids;
}

/** An expression as a tree: a challenge, or all / any of several parts (same operators merged). */
export type UnlockNode = { kind: "id"; id: number } | { kind: "all" | "any"; of: UnlockNode[] };

/**
 * The tree of a valid, non-empty expression (null for an empty or invalid one), for saying in
 * words what unlocks a challenge: `1 2 AND 3 AND` is all of [1, 2, 3]; `1 2 OR 3 AND` is all of
 * [any of [1, 2], 3].
 */
export function unlockTree(expression: string | null | undefined): UnlockNode | null {
  const parsed = parseUnlock(expression);
  if (!parsed.ok || parsed.tokens.length === 0) return null;
  const stack: UnlockNode[] = [];
  for (const token of parsed.tokens) {
    if (token.kind === "id") {
      stack.push({ kind: "id", id: token.id });
      continue;
    }
    const kind = token.op === "AND" ? "all" : "any";
    const right = stack.pop() as UnlockNode;
    const left = stack.pop() as UnlockNode;
    const parts = [left, right].flatMap((node) => (node.kind === kind ? node.of : [node]));
    stack.push({ kind, of: parts });
  }
  return stack[0] ?? null;
}
