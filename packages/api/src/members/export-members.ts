import type { Page } from "@flagship/shared";
import type { StaffContext } from "../guards.ts";
import { SOLVE_VIEW_SELECT, type SolveView, toSolveView } from "../teams/solve-view.ts";
import type { MemberDetail } from "./get-member.ts";
import { listMembers } from "./list-members.ts";

/**
 * A page of the member list as staff export it (GET /member/ with `X-Exporting: true`): each
 * member's staff object with their solves and wrong-flag count, as upstream answers RACTF's CSV
 * export. Three statements a page, however many members it holds.
 */
export async function exportMembers(ctx: StaffContext, input: unknown): Promise<Page<MemberDetail> & { limit: number; offset: number }> {
  const page = await listMembers(ctx, input);
  const ids = page.results.map((m) => m.id);
  const [solves, incorrect] = await Promise.all([
    ctx.db.solve.findMany({ where: { userId: { in: ids } }, select: SOLVE_VIEW_SELECT, orderBy: [{ timestamp: "desc" }, { id: "desc" }] }),
    ctx.db.incorrectAttempt.groupBy({ by: ["userId"], where: { userId: { in: ids } }, _count: { _all: true } }),
  ]);
  const incorrectOf = new Map(incorrect.map((r) => [r.userId, r._count._all]));
  const solvesOf = new Map<number, SolveView[]>();
  for (const s of solves) (solvesOf.get(s.userId) ?? solvesOf.set(s.userId, []).get(s.userId)!).push(toSolveView(s));
  return {
    ...page,
    results: page.results.map((member) => ({
      ...member,
      solves: solvesOf.get(member.id) ?? [],
      incorrect_solves: incorrectOf.get(member.id) ?? 0,
    })),
  };
}
