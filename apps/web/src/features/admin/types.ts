import type { AppRouter } from "@flagship/api";
import type { inferRouterOutputs } from "@trpc/server";

type Outputs = inferRouterOutputs<AppRouter>;

export type AdminMember = Outputs["users"]["get"];
export type SignInFailures = Outputs["users"]["signInFailures"][number];
export type AdminTeam = Outputs["teams"]["get"];
export type AuditEntry = Outputs["admin"]["auditLogPage"]["results"][number];
export type FullStats = Outputs["stats"]["full"];
