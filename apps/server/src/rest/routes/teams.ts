import {
  createLeaderboardGroup,
  createTeam,
  deleteLeaderboardGroup,
  exportTeams,
  getOwnTeam,
  getTeam,
  joinTeam,
  leaveTeam,
  listLeaderboardGroups,
  listTeams,
  requireAuth,
  requireStaff,
  updateLeaderboardGroup,
  updateOwnTeam,
  updateTeamAsStaff,
} from "@flagship/api";
import { AppError } from "@flagship/shared";
import { envelopeBytes, pageBody, type RestRoutes } from "../adapter.ts";
import { isStaffExport } from "../exporting.ts";

/** A path id: digits only, anything else is simply not found. */
export function pathId(value: string | undefined): number {
  if (!value || !/^\d{1,9}$/.test(value) || Number(value) === 0) throw new AppError("not_found");
  return Number(value);
}

export function teamRoutes(rest: RestRoutes): void {
  rest.route("/team/", {
    GET: async ({ ctx, query, request }) => {
      if (await isStaffExport(ctx, request)) {
        const page = await exportTeams(await requireStaff(ctx), query);
        return { d: pageBody(request, page, page) };
      }
      const page = await listTeams(ctx, query);
      return { d: pageBody(request, page, page) };
    },
  });
  rest.route("/team/self/", {
    GET: async ({ ctx }) => {
      const team = await getOwnTeam(requireAuth(ctx));
      if (!team) throw new AppError("not_found");
      // The team is a maintained view, replaced when it changes: encoded once per view.
      return envelopeBytes(team);
    },
    PATCH: async ({ ctx, body }) => ({ d: await updateOwnTeam(requireAuth(ctx), body) }),
  });
  rest.route("/team/create/", {
    POST: async ({ ctx, body }) => ({ d: await createTeam(requireAuth(ctx), body), status: 201 }),
  });
  rest.route("/team/join/", {
    POST: async ({ ctx, body }) => ({ d: await joinTeam(requireAuth(ctx), body) }),
  });
  rest.route("/team/leave/", {
    POST: async ({ ctx }) => {
      await leaveTeam(requireAuth(ctx));
      return { d: "" };
    },
  });
  rest.route("/team/groups/", {
    GET: async ({ ctx, query, request }) => {
      const page = await listLeaderboardGroups(ctx, query);
      return { d: pageBody(request, page, page) };
    },
    POST: async ({ ctx, body }) => ({ d: await createLeaderboardGroup(await requireStaff(ctx), body), status: 201 }),
  });
  rest.route("/team/groups/:id/", {
    PATCH: async ({ ctx, params, body }) => ({ d: await updateLeaderboardGroup(await requireStaff(ctx), pathId(params.id), body) }),
    DELETE: async ({ ctx, params }) => {
      await deleteLeaderboardGroup(await requireStaff(ctx), pathId(params.id));
      return { d: "" };
    },
  });
  rest.route("/team/:id/", {
    GET: async ({ ctx, params }) => ({ d: await getTeam(ctx, pathId(params.id)) }),
    PATCH: async ({ ctx, params, body }) => {
      const staff = await requireStaff(ctx);
      return { d: await updateTeamAsStaff(staff, pathId(params.id), body) };
    },
  });
}
