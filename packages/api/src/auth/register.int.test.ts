import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { callerFor, createTestWorld, createUser, type TestWorld, uniqueName } from "../testing/index.ts";

const STRONG = "Tangerine-Quokka-Marble-91";
let world: TestWorld;

beforeAll(async () => {
  world = await createTestWorld();
});
afterAll(() => world.close());

async function setConfig(key: string, value: unknown) {
  await world.services.db.config.upsert({ where: { key }, create: { key, value: value as object }, update: { value: value as object } });
  world.services.config.invalidate();
}

function details(username = uniqueName("reg")) {
  return { username, email: `${username}@example.test`, password: STRONG, password2: STRONG, accept: true };
}

const anon = () => callerFor(world, null);

describe("registration", () => {
  beforeEach(async () => {
    for (const [key, value] of Object.entries({
      enable_registration: true,
      register_start_time: null,
      register_end_time: null,
      invite_required: false,
      email_domain: "",
      email_regex: "",
      enable_teams: true,
    })) {
      await setConfig(key, value);
    }
  });

  it("makes the very first account staff, even when several register at once, and later ones players", async () => {
    const first = await Promise.all([details(), details(), details(), details()].map((d) => anon().auth.register(d)));
    expect(first.every((r) => r.token !== null && r.verificationRequired === false)).toBe(true);
    const users = await world.services.db.user.findMany({ select: { isStaff: true, emailVerified: true, acceptedTermsAt: true } });
    expect(users.filter((u) => u.isStaff)).toHaveLength(1);
    expect(users.every((u) => u.emailVerified && u.acceptedTermsAt !== null)).toBe(true);
  });

  it("signs the new account in without a mail transport", async () => {
    const d = details();
    const { token } = await anon().auth.register(d);
    const row = await world.services.db.user.findUniqueOrThrow({ where: { username: d.username }, select: { passwordHash: true } });
    expect(row.passwordHash.startsWith("$argon2id$")).toBe(true);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
  });

  it("announces the new account to the boards", async () => {
    const seen = world.events.length;
    await anon().auth.register(details());
    expect(world.events.slice(seen)).toContainEqual({ kind: "internal", name: "leaderboard_changed" });
  });

  it("gives no token while login is not open for the new account, as login would refuse it", async () => {
    try {
      await setConfig("enable_login", false);
      expect(await anon().auth.register(details())).toEqual({ verificationRequired: false, token: null });
      await setConfig("enable_login", true);
      // Before the start, login (and so a token) waits for the start only without prelogin.
      await setConfig("start_time", Math.floor(Date.now() / 1000) + 3600);
      expect((await anon().auth.register(details())).token).toMatch(/^[0-9a-f]{64}$/);
      await setConfig("enable_prelogin", false);
      expect(await anon().auth.register(details())).toEqual({ verificationRequired: false, token: null });
    } finally {
      await setConfig("enable_login", true);
      await setConfig("enable_prelogin", true);
      await setConfig("start_time", null);
    }
    expect((await anon().auth.register(details())).token).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a weak password on the server too, and changes nothing", async () => {
    const d = { ...details(), password: "password1", password2: "password1" };
    await expect(anon().auth.register(d)).rejects.toMatchObject({ cause: { code: "weak_password", details: { password: [expect.any(String)] } } });
    expect(await world.services.db.user.count({ where: { username: d.username } })).toBe(0);
  });

  it("requires the two passwords to match", async () => {
    await expect(anon().auth.register({ ...details(), password2: "Other-Quokka-Marble-91" })).rejects.toMatchObject({
      cause: { code: "invalid", details: { password2: ["Passwords must match"] } },
    });
  });

  it("takes usernames and emails case-insensitively as in use", async () => {
    const d = details();
    await anon().auth.register(d);
    await expect(anon().auth.register({ ...details(), username: d.username.toUpperCase() })).rejects.toMatchObject({ cause: { code: "email_or_username_in_use" } });
    await expect(anon().auth.register({ ...details(), email: d.email.toUpperCase() })).rejects.toMatchObject({ cause: { code: "email_or_username_in_use" } });
  });

  it("lets exactly one of two concurrent registrations of the same name through", async () => {
    const name = uniqueName("race");
    const results = await Promise.allSettled([
      anon().auth.register({ ...details(name), email: `${name}-a@example.test` }),
      anon().auth.register({ ...details(name), email: `${name}-b@example.test` }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason.cause.code).toBe("email_or_username_in_use");
  });

  it("enforces email_domain and email_regex", async () => {
    await setConfig("email_domain", "uni.example");
    await expect(anon().auth.register(details())).rejects.toMatchObject({ cause: { code: "invalid", details: { email: ["Invalid email"] } } });
    const name = uniqueName("uni");
    await expect(anon().auth.register({ ...details(name), email: `${name}@uni.example` })).resolves.toBeTruthy();
    await setConfig("email_domain", "");
    await setConfig("email_regex", "s\\d+@school\\.example");
    await expect(anon().auth.register(details())).rejects.toMatchObject({ cause: { code: "invalid" } });
    await expect(anon().auth.register({ ...details(), email: `s${Date.now()}@school.example` })).resolves.toBeTruthy();
  });

  it("reports missing and over-long fields with their codes", async () => {
    await expect(anon().auth.register({ email: "a@b.co", password: STRONG } as never)).rejects.toMatchObject({ cause: { code: "required" } });
    await expect(anon().auth.register({ ...details(), username: "u".repeat(37) })).rejects.toMatchObject({ cause: { code: "max_length" } });
  });

  it("is closed when enable_registration is off or outside the registration window", async () => {
    await setConfig("enable_registration", false);
    await expect(anon().auth.register(details())).rejects.toMatchObject({ cause: { code: "registration_not_open" } });
    await setConfig("enable_registration", true);
    world.setNow(1_800_000_000);
    await setConfig("register_start_time", 1_800_000_100);
    await expect(anon().auth.register(details())).rejects.toMatchObject({ cause: { code: "registration_not_open" } });
    await setConfig("register_start_time", 1_799_000_000);
    await setConfig("register_end_time", 1_800_000_000);
    await expect(anon().auth.register(details())).rejects.toMatchObject({ cause: { code: "registration_not_open" } });
    await setConfig("register_end_time", 1_800_000_001);
    await expect(anon().auth.register(details())).resolves.toBeTruthy();
    world.setNow(null);
  });

  it("creates a team named after the user when teams are off", async () => {
    await setConfig("enable_teams", false);
    const d = details();
    await anon().auth.register(d);
    const user = await world.services.db.user.findUniqueOrThrow({ where: { username: d.username }, select: { id: true, team: { select: { name: true, ownerId: true } } } });
    expect(user.team).toEqual({ name: d.username, ownerId: user.id });
  });

  it("needs an invite when invites are required, honours max_uses under concurrency and auto_team", async () => {
    await setConfig("invite_required", true);
    await expect(anon().auth.register(details())).rejects.toMatchObject({ cause: { code: "invite_required" } });
    await expect(anon().auth.register({ ...details(), invite: "nope" })).rejects.toMatchObject({ cause: { code: "invalid_invite" } });

    const staff = await createUser(world, { isStaff: true });
    const team = await world.services.db.team.create({ data: { name: uniqueName("team"), password: "secret-secret" }, select: { id: true } });
    const { invite_codes } = await callerFor(world, staff).auth.generateInvites({ amount: 1, max_uses: 2, auto_team: team.id });
    const code = invite_codes[0]!;
    const results = await Promise.allSettled([details(), details(), details()].map((d) => anon().auth.register({ ...d, invite: code })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason.cause.code).toBe("invite_already_used");
    expect(await world.services.db.user.count({ where: { teamId: team.id } })).toBe(2);
    const invite = await world.services.db.invite.findUniqueOrThrow({ where: { code }, select: { uses: true } });
    expect(invite.uses).toBe(2);
    // The staff console lists the invite with its team's name, not only its id.
    const listed = await callerFor(world, staff).auth.invites({ limit: 1000 });
    const { name } = await world.services.db.team.findUniqueOrThrow({ where: { id: team.id }, select: { name: true } });
    expect(listed.results.find((r) => r.code === code)).toMatchObject({ auto_team: team.id, auto_team_name: name });
  });
});

describe("invites (staff)", () => {
  it("generates codes, audited, and lists them with fully_used", async () => {
    const staff = await createUser(world, { isStaff: true });
    const { invite_codes } = await callerFor(world, staff).auth.generateInvites({ amount: 3 });
    expect(invite_codes).toHaveLength(3);
    const unused = await callerFor(world, staff).auth.invites({ fully_used: false, limit: 1000 });
    expect(unused.results.map((r) => r.code)).toEqual(expect.arrayContaining(invite_codes));
    expect(unused.results.find((r) => r.code === invite_codes[0])).toMatchObject({ uses: 0, max_uses: 1, auto_team: null, auto_team_name: null });
    const audit = await world.services.db.auditLog.findFirstOrThrow({ where: { action: "generate_invites" }, orderBy: { id: "desc" } });
    expect(audit.extra).toMatchObject({ amount: 3, max_uses: 1 });
  });

  it("refuses more than 10000 at once, and players", async () => {
    const staff = await createUser(world, { isStaff: true });
    await expect(callerFor(world, staff).auth.generateInvites({ amount: 10_001 })).rejects.toMatchObject({ cause: { code: "max_value" } });
    const player = await createUser(world);
    await expect(callerFor(world, player).auth.generateInvites({ amount: 1 })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
