import { z } from "zod";
import { router, staffProcedure } from "../trpc.ts";
import { exportLeaderboardCsv, exportPlayersCsv, exportTeamsCsv } from "./csv-exports.ts";
import { exportCategory, exportChallenge } from "./export-content.ts";
import { importCategory, importChallenge } from "./import-content.ts";

// Transport shapes only: the domain functions validate with the shared schemas.
const body = z.unknown();

// Whole-event archives are binary: they travel over plain HTTP (see exportEventArchive).
export const portRouter = router({
  exportChallenge: staffProcedure.input(body).query(({ ctx, input }) => exportChallenge(ctx, input)),
  exportCategory: staffProcedure.input(body).query(({ ctx, input }) => exportCategory(ctx, input)),
  importChallenge: staffProcedure.input(body).mutation(({ ctx, input }) => importChallenge(ctx, input)),
  importCategory: staffProcedure.input(body).mutation(({ ctx, input }) => importCategory(ctx, input)),
  playersCsv: staffProcedure.query(({ ctx }) => exportPlayersCsv(ctx)),
  teamsCsv: staffProcedure.query(({ ctx }) => exportTeamsCsv(ctx)),
  leaderboardCsv: staffProcedure.input(body).query(({ ctx, input }) => exportLeaderboardCsv(ctx, input)),
});
