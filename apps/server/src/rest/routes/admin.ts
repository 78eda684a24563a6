import { listSharingIncidents, listUpstreamAuditLog, requireStaff, selfCheck } from "@flagship/api";
import type { RestRoutes } from "../adapter.ts";

export function adminRoutes(rest: RestRoutes): void {
  // In upstream's shape, which RACTF's client draws (our own screens read the richer entries over tRPC).
  rest.route("/admin/audit_log/", { GET: async ({ ctx, query }) => ({ d: await listUpstreamAuditLog(await requireStaff(ctx), query) }) });
  rest.route("/admin/sharing/", { GET: async ({ ctx, query }) => ({ d: await listSharingIncidents(await requireStaff(ctx), query) }) });
  rest.route("/admin/self_check/", { GET: async ({ ctx }) => ({ d: await selfCheck(await requireStaff(ctx)) }) });
}
