import { afterEach, describe, expect, it } from "vitest";
import { resolveActor } from "../auth/resolve-actor.ts";
import { callerFor, createTestWorld, createUser, type TestWorld } from "../testing/index.ts";

const STRONG = "Tangerine-Quokka-Marble-91";
const START = 1_900_000_000;

function setup(overrides: Record<string, unknown> = {}) {
  return {
    event_name: "Harbour CTF",
    description: "Two days of puzzles by the sea.",
    start_time: START,
    end_time: START + 48 * 3600,
    enable_teams: true,
    team_size: 4,
    registration: "invite",
    username: "organiser",
    email: "organiser@example.test",
    password: STRONG,
    ...overrides,
  };
}

let worlds: TestWorld[] = [];
async function freshWorld(): Promise<TestWorld> {
  const world = await createTestWorld();
  worlds.push(world);
  return world;
}
afterEach(async () => {
  await Promise.all(worlds.map((w) => w.close()));
  worlds = [];
});

const anon = (world: TestWorld) => callerFor(world, null);

async function errorOf(promise: Promise<unknown>): Promise<{ code?: string; details?: unknown }> {
  try {
    await promise;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; details?: unknown } }).cause;
    return { code: cause?.code, details: cause?.details };
  }
  throw new Error("expected a refusal");
}

describe("first-run setup", () => {
  it("is needed on a server without accounts, and makes the event and its first staff account in one go", async () => {
    const world = await freshWorld();
    expect(await anon(world).setup.status()).toEqual({ needed: true, sso: false });

    const { token } = await anon(world).setup.complete(setup());
    const actor = await resolveActor(world.services, token);
    expect(actor).toMatchObject({ username: "organiser", isStaff: true });
    const user = await world.services.db.user.findUniqueOrThrow({ where: { username: "organiser" }, select: { emailVerified: true, passwordHash: true } });
    expect(user.emailVerified).toBe(true);
    expect(user.passwordHash.startsWith("$argon2id$")).toBe(true);

    const config = await world.services.config.all();
    expect(config).toMatchObject({
      event_name: "Harbour CTF",
      start_time: START,
      end_time: START + 48 * 3600,
      enable_teams: true,
      team_size: 4,
      invite_required: true,
      registration_provider: "basic_auth",
    });
    // Every setting is a staff write, audited under the new account in set_config's shape.
    const audits = await world.services.db.auditLog.findMany({ where: { action: "set_config" }, select: { username: true, extra: true } });
    expect(audits.every((a) => a.username === "organiser")).toBe(true);
    expect(audits.map((a) => a.extra)).toContainEqual({ key: "event_name", old_value: "Flagship CTF", new_value: "Harbour CTF" });
    expect(await anon(world).setup.status()).toEqual({ needed: false, sso: false });
    // The description opens the event's home page, written as staff would write it.
    const home = await anon(world).pages.home();
    expect(home.page?.content).toContain("Two days of puzzles by the sea.");
    expect(home.page?.content).toContain("{{categories}}");
    expect(await world.services.db.auditLog.count({ where: { action: "create_page", username: "organiser" } })).toBe(1);
  });

  it("refuses once any account exists, and changes nothing", async () => {
    const world = await freshWorld();
    await createUser(world, { isStaff: true });
    expect((await anon(world).setup.status()).needed).toBe(false);
    expect(await errorOf(anon(world).setup.complete(setup()))).toMatchObject({ code: "already_set_up" });
    expect((await world.services.config.all()).event_name).toBe("Flagship CTF");
    expect(await world.services.db.user.count()).toBe(1);
  });

  it("refuses an end before the start, a weak password and single sign-on the server lacks, under the field at fault", async () => {
    const world = await freshWorld();
    expect(await errorOf(anon(world).setup.complete(setup({ end_time: START - 60 })))).toMatchObject({ code: "invalid", details: { end_time: ["The end must come after the start."] } });
    expect(await errorOf(anon(world).setup.complete(setup({ password: "password1" })))).toMatchObject({ code: "weak_password" });
    expect(await errorOf(anon(world).setup.complete(setup({ registration: "sso" })))).toMatchObject({ code: "invalid", details: { registration: [expect.stringContaining("Single sign-on")] } });
    expect(await errorOf(anon(world).setup.complete(setup({ event_name: "" })))).toMatchObject({ details: { event_name: expect.any(Array) } });
    expect(await world.services.db.user.count()).toBe(0);
    expect(await world.services.db.auditLog.count()).toBe(0);
    expect((await anon(world).setup.status()).needed).toBe(true);
  });

  it("lets exactly one of several racing setups and registrations make the first account", async () => {
    const world = await freshWorld();
    const attempts = await Promise.allSettled([
      anon(world).setup.complete(setup({ username: "first", email: "first@example.test" })),
      anon(world).setup.complete(setup({ username: "second", email: "second@example.test" })),
      anon(world).auth.register({ username: "player", email: "player@example.test", password: STRONG, password2: STRONG, accept: true }),
    ]);
    const users = await world.services.db.user.findMany({ select: { username: true, isStaff: true } });
    // Either a setup won (and the other setup was refused, the player registering after it), or
    // the registration came first (its account is staff, as the REST contract says) and both
    // setups were refused.
    expect(users.filter((u) => u.isStaff)).toHaveLength(1);
    const setups = attempts.slice(0, 2);
    expect(setups.filter((a) => a.status === "fulfilled").length).toBeLessThanOrEqual(1);
    for (const refused of setups.filter((a) => a.status === "rejected")) {
      expect((refused.reason as { cause?: { code?: string } }).cause?.code).toBe("already_set_up");
    }
  });

  it("turns teams off with a team size of 0, and sets a theme when one is chosen", async () => {
    const world = await freshWorld();
    const theme = { primary: "#0f766e", secondary: "#475569", success: "#15803d", info: "#0369a1", warning: "#b45309", danger: "#b91c1c", dark: "#0f172a", light: "#f8fafc", sidebarType: "dark" };
    const logo = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=";
    await anon(world).setup.complete(setup({ enable_teams: false, team_size: 5, registration: "open", theme, logo, description: "" }));
    // No description: the event keeps the default home page.
    expect((await anon(world).pages.home()).page).toBeNull();
    expect(await world.services.config.all()).toMatchObject({ enable_teams: false, team_size: 0, invite_required: false, theme, logo });
  });

  it("takes only an image of a known type, within its size, as the logo", async () => {
    const world = await freshWorld();
    expect(await errorOf(anon(world).setup.complete(setup({ logo: "data:text/html;base64,PHNjcmlwdD4=" })))).toMatchObject({ details: { logo: ["Use a PNG, JPEG, WebP or SVG image."] } });
    const huge = `data:image/png;base64,${"A".repeat(200_000)}`;
    expect(await errorOf(anon(world).setup.complete(setup({ logo: huge })))).toMatchObject({ code: "max_length", details: { logo: [expect.any(String)] } });
    expect(await world.services.db.user.count()).toBe(0);
  });
});
