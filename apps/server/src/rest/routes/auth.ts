import {
  addTwoFactor,
  changePassword,
  createPersonalToken,
  deleteAccount,
  desudo,
  generateInvites,
  getSelf,
  listInvites,
  listPersonalTokens,
  login,
  login2fa,
  logout,
  regenerateBackupCodes,
  register,
  removeTwoFactor,
  requestPasswordReset,
  requireAuth,
  requireStaff,
  resendVerification,
  resetPassword,
  revokePersonalToken,
  sudo,
  updateSelf,
  verifyEmail,
  verifyTwoFactor,
} from "@flagship/api";
import { envelopeBytes, pageBody, type RestHandler, type RestRoutes } from "../adapter.ts";
import { pathId } from "./challenges.ts";

/** The account paths of the REST contract; each handler only authorises and calls the domain. */
export function authRoutes(rest: RestRoutes): void {
  rest.route("/auth/register/", {
    POST: async ({ ctx, body }) => {
      await register(ctx, body);
      return { d: {}, status: 201 };
    },
  });
  rest.route("/auth/login/", { POST: async ({ ctx, body }) => ({ d: await login(ctx, body) }) });
  rest.route("/auth/login_2fa/", { POST: async ({ ctx, body }) => ({ d: await login2fa(ctx, body) }) });
  rest.route("/auth/logout/", {
    POST: async ({ ctx }) => {
      await logout(requireAuth(ctx));
      return { d: "" };
    },
  });

  rest.route("/auth/add_2fa/", {
    POST: async ({ ctx }) => {
      const { totp_secret } = await addTwoFactor(requireAuth(ctx));
      return { d: { totp_secret } };
    },
  });
  rest.route("/auth/verify_2fa/", { POST: async ({ ctx, body }) => ({ d: await verifyTwoFactor(requireAuth(ctx), body) }) });
  rest.route("/auth/remove_2fa/", {
    POST: async ({ ctx, body }) => {
      await removeTwoFactor(requireAuth(ctx), body);
      return { d: "" };
    },
  });
  rest.route("/auth/regenerate_backup_codes/", { POST: async ({ ctx }) => ({ d: await regenerateBackupCodes(requireAuth(ctx)) }) });

  rest.route("/auth/change_password/", {
    POST: async ({ ctx, body }) => {
      await changePassword(requireAuth(ctx), body);
      return { d: "" };
    },
  });
  rest.route("/auth/request_password_reset/", {
    POST: async ({ ctx, body }) => {
      await requestPasswordReset(ctx, body);
      return { d: "" };
    },
  });
  rest.route("/auth/password_reset/", { POST: async ({ ctx, body }) => ({ d: await resetPassword(ctx, body) }) });
  rest.route("/auth/verify_email/", { POST: async ({ ctx, body }) => ({ d: await verifyEmail(ctx, body) }) });
  rest.route("/auth/resend_email/", {
    POST: async ({ ctx, body }) => {
      await resendVerification(ctx, body);
      return { d: "" };
    },
  });

  rest.route("/auth/sudo/", {
    POST: async ({ ctx, body }) => {
      const { token } = await sudo(await requireStaff(ctx), body);
      return { d: { token } };
    },
  });
  // RACTF's client ends an impersonation with a POST; the specs' GET is answered too.
  const endImpersonation: RestHandler = async ({ ctx }) => ({ d: await desudo(requireAuth(ctx)) });
  rest.route("/auth/desudo/", { GET: endImpersonation, POST: endImpersonation });

  rest.route("/auth/generate_invites/", { POST: async ({ ctx, body }) => ({ d: await generateInvites(await requireStaff(ctx), body) }) });
  rest.route("/auth/invites/", {
    GET: async ({ ctx, query, request }) => {
      const page = await listInvites(await requireStaff(ctx), query);
      return { d: pageBody(request, page, page) };
    },
  });

  // Personal access tokens (staff): the key is in the create answer only.
  rest.route("/auth/tokens/", {
    GET: async ({ ctx }) => ({ d: await listPersonalTokens(await requireStaff(ctx)) }),
    POST: async ({ ctx, body }) => ({ d: await createPersonalToken(await requireStaff(ctx), body), status: 201 }),
  });
  rest.route("/auth/tokens/:id/", {
    DELETE: async ({ ctx, params }) => {
      await revokePersonalToken(await requireStaff(ctx), pathId(params.id));
      return { d: "" };
    },
  });

  rest.route("/member/self/", {
    // The profile is a maintained view, replaced when it changes: encoded once per view.
    GET: async ({ ctx }) => envelopeBytes(await getSelf(requireAuth(ctx))),
    PATCH: async ({ ctx, body }) => ({ d: await updateSelf(requireAuth(ctx), body) }),
    DELETE: async ({ ctx, body }) => {
      await deleteAccount(requireAuth(ctx), body);
      return { d: "" };
    },
  });
}
