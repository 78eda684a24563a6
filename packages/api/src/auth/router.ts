import type {
  ChangePasswordInput,
  EmailInput,
  EmailTokenInput,
  GenerateInvitesInput,
  Login2faInput,
  LoginInput,
  OtpInput,
  PasswordResetInput,
  RegisterInput,
  SudoInput,
} from "@flagship/shared";
import { authedProcedure, publicProcedure, router, staffProcedure } from "../trpc.ts";
import { changePassword } from "./change-password.ts";
import { desudo, sudo } from "./impersonate.ts";
import { generateInvites, listNamedInvites } from "./invites.ts";
import { login, login2fa, mayLogInDirectly } from "./login.ts";
import { logout } from "./logout.ts";
import { listIdentities, oidcInfo, redeemOidcLink, redeemOidcLogin, unlinkIdentity } from "./oidc.ts";
import { getMe } from "./me.ts";
import { createPersonalToken, listPersonalTokens, revokePersonalToken } from "./personal-tokens.ts";
import { requestPasswordReset, resetPassword } from "./password-reset.ts";
import { register } from "./register.ts";
import { issueToken } from "./tokens.ts";
import { addTwoFactor, regenerateBackupCodes, removeTwoFactor, verifyTwoFactor } from "./two-factor.ts";
import { resendVerification, verifyEmail } from "./verify-email.ts";

/**
 * Inputs are typed here and validated by the domain functions (parseInput), so both transports
 * answer the same field codes (`required`, `max_length`...) for the same bad input.
 */
const typed = <T>() => (value: unknown) => value as T;

export const authRouter = router({
  me: publicProcedure.query(({ ctx }) => getMe(ctx)),

  register: publicProcedure.input(typed<RegisterInput>()).mutation(async ({ ctx, input }) => {
    const registered = await register(ctx, input, { terms: "required_when_written" });
    // The web app signs the new account straight in only when it could log in right now: an
    // email to verify, login switched off or the event not started all mean no token yet, as
    // REST login would refuse it too.
    const direct = await mayLogInDirectly(ctx, { isStaff: registered.isStaff, emailVerified: !registered.verificationRequired, totpVerified: false });
    const token = direct ? await issueToken(ctx.db, registered.id) : null;
    return { verificationRequired: registered.verificationRequired, token };
  }),
  login: publicProcedure.input(typed<LoginInput>()).mutation(({ ctx, input }) => login(ctx, input)),
  login2fa: publicProcedure.input(typed<Login2faInput>()).mutation(({ ctx, input }) => login2fa(ctx, input)),
  logout: authedProcedure.mutation(({ ctx }) => logout(ctx)),

  // Single sign-on (OpenID Connect): the browser goes through /auth/oidc/start and /callback; the
  // web app redeems the callback's one-time code here, which counts only with the cookie of the
  // browser that began the round trip (and, for a link, for the account that began it).
  oidcInfo: publicProcedure.query(({ ctx }) => oidcInfo(ctx)),
  oidcLogin: publicProcedure.input(typed<{ code: string }>()).mutation(({ ctx, input }) => redeemOidcLogin(ctx, input)),
  oidcLink: authedProcedure.input(typed<{ code: string }>()).mutation(({ ctx, input }) => redeemOidcLink(ctx, input)),
  identities: authedProcedure.query(({ ctx }) => listIdentities(ctx)),
  unlinkIdentity: authedProcedure.input(typed<{ id: number }>()).mutation(({ ctx, input }) => unlinkIdentity(ctx, input)),

  add2fa: authedProcedure.mutation(({ ctx }) => addTwoFactor(ctx)),
  verify2fa: authedProcedure.input(typed<OtpInput>()).mutation(({ ctx, input }) => verifyTwoFactor(ctx, input)),
  remove2fa: authedProcedure.input(typed<OtpInput>()).mutation(({ ctx, input }) => removeTwoFactor(ctx, input)),
  regenerateBackupCodes: authedProcedure.mutation(({ ctx }) => regenerateBackupCodes(ctx)),

  changePassword: authedProcedure.input(typed<ChangePasswordInput>()).mutation(({ ctx, input }) => changePassword(ctx, input)),
  requestPasswordReset: publicProcedure.input(typed<EmailInput>()).mutation(({ ctx, input }) => requestPasswordReset(ctx, input)),
  resetPassword: publicProcedure.input(typed<PasswordResetInput>()).mutation(({ ctx, input }) => resetPassword(ctx, input)),
  verifyEmail: publicProcedure.input(typed<EmailTokenInput>()).mutation(({ ctx, input }) => verifyEmail(ctx, input)),
  resendEmail: publicProcedure.input(typed<EmailInput>()).mutation(({ ctx, input }) => resendVerification(ctx, input)),

  sudo: staffProcedure.input(typed<SudoInput>()).mutation(({ ctx, input }) => sudo(ctx, input)),
  desudo: authedProcedure.mutation(({ ctx }) => desudo(ctx)),

  personalTokens: staffProcedure.query(({ ctx }) => listPersonalTokens(ctx)),
  createPersonalToken: staffProcedure
    .input(typed<{ name: string; expires_in_days: number }>())
    .mutation(({ ctx, input }) => createPersonalToken(ctx, input)),
  revokePersonalToken: staffProcedure.input(typed<{ id: number }>()).mutation(({ ctx, input }) => revokePersonalToken(ctx, input.id)),

  generateInvites: staffProcedure.input(typed<GenerateInvitesInput>()).mutation(({ ctx, input }) => generateInvites(ctx, input)),
  invites: staffProcedure
    .input(typed<{ limit?: number; offset?: number; fully_used?: boolean } | undefined>())
    .query(({ ctx, input }) => listNamedInvites(ctx, input ?? {})),
});
