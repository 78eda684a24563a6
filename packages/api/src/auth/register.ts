import { randomBytes } from "node:crypto";
import { isUniqueViolation, type Prisma } from "@flagship/db";
import { AppError, emailAllowed, eventGates, LIMITS, parseInput, type RegisterInput, ZRegisterInput } from "@flagship/shared";
import type { Context } from "../context.ts";
import { sendQuietly } from "../mail/mailer.ts";
import { termsPages } from "../pages/terms.ts";
import { createEmailToken, verifyLink } from "./email-tokens.ts";
import { verificationMail } from "./mails.ts";
import { assertStrongPassword, hashPassword } from "./passwords.ts";

export interface Registered {
  id: number;
  /** The account must verify its email before logging in (a mail transport is configured). */
  verificationRequired: boolean;
  /** The very first account is staff. */
  isStaff: boolean;
}

// Serialises registrations so exactly one account can be the very first (and become staff).
export const FIRST_ACCOUNT_LOCK = 0x666c6167; // "flag"

/**
 * POST /auth/register/. Checked in order: the registration gate (closed to passwords when
 * registration_provider is oidc), the fields, the email rules,
 * the passwords, the invite; then the account is created with its side effects (first account
 * is staff, teams off gives a team of one, an invite's auto_team puts the user in that team).
 *
 * Accepting the terms: with `terms: "required_when_written"` (our web app), sign-up needs `accept`
 * once staff have written a terms or privacy page, and never asks while neither exists. The REST API
 * records `accept` when sent but does not require it, as its contract promises older clients.
 */
export async function register(ctx: Context, raw: unknown, options: { terms?: "required_when_written" | "recorded" } = {}): Promise<Registered> {
  await ctx.throttle.check(ctx, "register");
  const config = await ctx.config.all();
  if (!config.enable_registration || !eventGates(config, ctx.now()).registrationOpen) throw new AppError("registration_not_open");
  // Sign-ups by single sign-on only: new accounts come from the organisation's provider.
  if (config.registration_provider === "oidc") {
    throw new AppError("registration_not_open", { message: "Sign up with your organisation's account: registration with a password is off." });
  }

  const input: RegisterInput = parseInput(ZRegisterInput, raw);
  if (!emailAllowed(input.email, config)) throw AppError.field("invalid", "email", "Invalid email");
  if (input.password2 !== undefined && input.password2 !== input.password) {
    throw AppError.field("invalid", "password2", "Passwords must match");
  }
  assertStrongPassword(input.password, [input.username, input.email, config.event_name]);
  const invite = input.invite?.trim() || null;
  if (config.invite_required && !invite) throw AppError.field("invite_required", "invite");
  if (options.terms === "required_when_written" && input.accept !== true && (await termsPages(ctx.db)).length > 0) {
    throw AppError.field("required", "accept", "You must accept the terms of use and privacy policy to register.");
  }

  const passwordHash = await (ctx.hashPassword ?? hashPassword)(input.password);
  const verificationRequired = ctx.mail.delivers;
  let created: { id: number; isStaff: boolean };
  try {
    created = await ctx.db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK})`;
      const taken = await tx.user.findFirst({
        where: { OR: [{ username: input.username }, { email: input.email }] },
        select: { id: true },
      });
      if (taken) throw new AppError("email_or_username_in_use");

      const autoTeamId = invite ? await redeemInvite(tx, invite) : null;
      const first = (await tx.user.count()) === 0;
      const user = await tx.user.create({
        data: {
          username: input.username,
          email: input.email,
          passwordHash,
          isStaff: first,
          emailVerified: !verificationRequired,
          acceptedTermsAt: input.accept ? new Date(ctx.now() * 1000) : null,
          signupIp: ctx.ip,
          lastIp: ctx.ip,
          teamId: autoTeamId,
        },
        select: { id: true, isStaff: true },
      });
      if (autoTeamId === null && !config.enable_teams) await createOwnTeam(tx, user.id, input.username);
      return user;
    });
  } catch (error) {
    // A concurrent registration took the name or email between our check and our insert.
    if (isUniqueViolation(error)) throw new AppError("email_or_username_in_use");
    throw error;
  }

  // A new visible account (and maybe its team of one) appears on the boards.
  await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
  if (verificationRequired) {
    const token = await createEmailToken(ctx.db, created.id, "verify_email", ctx.now());
    await sendQuietly(ctx.mail, ctx.log, verificationMail(input.email, input.username, config.event_name, verifyLink(ctx.mail.publicUrl, created.id, token)));
  }
  return { id: created.id, verificationRequired: verificationRequired && !created.isStaff, isStaff: created.isStaff };
}

/**
 * Takes one use of an invite. The conditional increment holds max_uses under concurrency: of two
 * registrations racing for the last use, exactly one gets it.
 */
async function redeemInvite(tx: Prisma.TransactionClient, code: string): Promise<number | null> {
  const invite = await tx.invite.findUnique({ where: { code }, select: { id: true, autoTeamId: true } });
  if (!invite) throw AppError.field("invalid_invite", "invite", "That invite code is not valid.");
  const taken = await tx.invite.updateMany({
    where: { id: invite.id, uses: { lt: tx.invite.fields.maxUses } },
    data: { uses: { increment: 1 } },
  });
  if (taken.count !== 1) throw AppError.field("invite_already_used", "invite", "That invite code has already been used.");
  return invite.autoTeamId;
}

/** With teams off every player plays as a team of one, named after them. */
export async function createOwnTeam(tx: Prisma.TransactionClient, userId: number, username: string): Promise<void> {
  // A team may already carry this name (made while teams were on): fall back to a suffixed name.
  const existing = await tx.team.findUnique({ where: { name: username }, select: { id: true } });
  const suffix = `#${userId}`;
  const name = existing ? `${username.slice(0, LIMITS.teamName - suffix.length)}${suffix}` : username;
  const team = await tx.team.create({
    data: { name, ownerId: userId, password: randomBytes(12).toString("hex") },
    select: { id: true },
  });
  await tx.user.update({ where: { id: userId }, data: { teamId: team.id }, select: { id: true } });
}
