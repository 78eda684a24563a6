import { parseUnlock } from "./unlocks.ts";

export type UnlockOperator = "AND" | "OR";

/** An unlock requirement as the editor offers it: challenges picked, and whether all or any of them. */
export interface UnlockPicks {
  ids: number[];
  operator: UnlockOperator;
}

/**
 * The picks an expression amounts to, or null when it cannot be shown as one list (it mixes AND
 * and OR, or does not parse). An expression with one operator throughout means the same however it
 * is bracketed ('1 2 3 AND AND' is '1 2 AND 3 AND'), so any such expression is a list. The empty
 * expression is no picks.
 */
export function unlockPicks(expression: string | null | undefined): UnlockPicks | null {
  const parsed = parseUnlock(expression?.trim() ?? "");
  if (!parsed.ok) return null;
  const ids: number[] = [];
  const operators = new Set<UnlockOperator>();
  for (const token of parsed.tokens) {
    if (token.kind === "op") operators.add(token.op);
    else if (!ids.includes(token.id)) ids.push(token.id);
  }
  if (operators.size > 1) return null;
  return { ids, operator: operators.has("OR") ? "OR" : "AND" };
}

/** The postfix expression for picks: '' for none, '12' for one, '12 15 AND 20 AND' for more. */
export function unlockExpression(picks: UnlockPicks): string {
  const [first, ...rest] = [...new Set(picks.ids)];
  if (first === undefined) return "";
  return [String(first), ...rest.map((id) => `${id} ${picks.operator}`)].join(" ");
}
