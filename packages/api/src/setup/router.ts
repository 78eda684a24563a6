import { publicProcedure, router } from "../trpc.ts";
import { completeSetup } from "./complete-setup.ts";
import { getSetupStatus } from "./setup-status.ts";

export const setupRouter = router({
  status: publicProcedure.query(({ ctx }) => getSetupStatus(ctx)),
  complete: publicProcedure.input((value: unknown) => value).mutation(({ ctx, input }) => completeSetup(ctx, input)),
});
