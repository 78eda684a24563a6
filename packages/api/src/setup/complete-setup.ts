import { AppError, type Config, parseInput, setupConfig, ZSetupInput } from "@flagship/shared";
import { Prisma } from "@flagship/db";
import { writeAudit } from "../audit/write-audit.ts";
import { FIRST_ACCOUNT_LOCK } from "../auth/register.ts";
import { assertStrongPassword, hashPassword } from "../auth/passwords.ts";
import { issueToken } from "../auth/tokens.ts";
import type { Context } from "../context.ts";
import { HOME_URL } from "../pages/pages.ts";

/**
 * The home page a setup with a description writes: the description between the event's name and
 * the page's blocks (the countdown, how to take part, the categories), as staff would write it
 * under Admin → Pages. Without a description the event keeps the default home page.
 */
export function setupHomeContent(description: string): string {
  return ["# {{event_name}}", description, "{{countdown}}", "{{actions}}", "## Challenges", "{{categories}}"].join("\n\n");
}

/**
 * The first-run setup: the event's settings, its home page (from the description) and the first
 * staff account, in one transaction. It
 * takes the same lock as registration, so of a setup and a registration racing on a fresh server
 * exactly one makes the first account; a setup that finds any account refuses (`already_set_up`)
 * and changes nothing. Each setting is audited as set_config by the new staff account. The new
 * account is signed in: the setup ends on the staff dashboard.
 */
export async function completeSetup(ctx: Context, raw: unknown): Promise<{ token: string }> {
  const input = parseInput(ZSetupInput, raw);
  if (input.registration === "sso" && !ctx.oidc) {
    throw AppError.field("invalid", "registration", "Single sign-on is not set up on this server: choose open or invite-only registration.");
  }
  const config = setupConfig(input);
  assertStrongPassword(input.password, [input.username, input.email, input.event_name]);
  // Refuse before the slow hash when the answer is already known.
  if (await ctx.db.user.findFirst({ select: { id: true } })) throw new AppError("already_set_up");
  const passwordHash = await (ctx.hashPassword ?? hashPassword)(input.password);
  const now = new Date(ctx.now() * 1000);

  const token = await ctx.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK})`;
    if (await tx.user.findFirst({ select: { id: true } })) throw new AppError("already_set_up");
    const staff = await tx.user.create({
      data: {
        username: input.username,
        email: input.email,
        passwordHash,
        isStaff: true,
        emailVerified: true,
        acceptedTermsAt: now,
        signupIp: ctx.ip,
        lastIp: ctx.ip,
      },
      select: { id: true, username: true },
    });
    const old = await ctx.config.all();
    for (const [key, value] of Object.entries(config) as [keyof Config, Config[keyof Config]][]) {
      const json = (value === null ? Prisma.JsonNull : value) as Prisma.InputJsonValue;
      await tx.config.upsert({ where: { key }, create: { key, value: json }, update: { value: json } });
      await writeAudit(tx, staff, "set_config", { key, old_value: old[key], new_value: value });
    }
    if (input.description !== "") {
      const page = await tx.page.create({ data: { url: HOME_URL, title: input.event_name, content: setupHomeContent(input.description) }, select: { id: true, url: true } });
      await writeAudit(tx, staff, "create_page", { id: page.id, url: page.url });
    }
    return issueToken(tx, staff.id);
  });

  ctx.config.invalidate();
  for (const key of Object.keys(config)) await ctx.events.publish({ kind: "internal", name: "config_changed", data: { key } });
  await ctx.events.publish({ kind: "internal", name: "leaderboard_changed" });
  return { token };
}
