import type { AppRouter } from "@flagship/api";
import type { inferRouterOutputs } from "@trpc/server";

type Outputs = inferRouterOutputs<AppRouter>;

export type TeamData = Outputs["teams"]["get"];
export type MemberData = Outputs["users"]["get"];
