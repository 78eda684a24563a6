import { CONFIG_DEFAULTS } from "@flagship/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, createTestWorld, createUser, type TestUser, type TestWorld } from "../testing/index.ts";

let world: TestWorld;
let staff: TestUser;
let player: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  player = await createUser(world);
});
afterAll(() => world.close());

describe("config", () => {
  it("lists every public key with its default on a fresh server", async () => {
    const config = await callerFor(world, null).config.list();
    expect(config.flag_prefix).toBe("flag");
    expect(config.event_name).toBe("Flagship CTF");
    expect(config.enable_team_leave).toBe(false);
    expect(config.team_size).toBe(0);
    expect(config.start_time).toBeNull();
    expect(config).not.toHaveProperty("firstblood_webhook");
    expect(config).not.toHaveProperty("enable_force_admin_2fa");
  });

  it("shows staff the sensitive keys", async () => {
    const config = await callerFor(world, staff).config.list();
    expect(config.firstblood_webhook).toBe("");
    expect(config.enable_force_admin_2fa).toBe(false);
  });

  it("refuses sensitive keys to players", async () => {
    await expect(callerFor(world, player).config.get({ key: "firstblood_webhook" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  it("lets staff set a key, audited with old and new values, visible at once", async () => {
    await callerFor(world, staff).config.set({ key: "event_name", value: "Spring CTF" });
    expect(await callerFor(world, player).config.get({ key: "event_name" })).toBe("Spring CTF");
    const entry = await world.services.db.auditLog.findFirstOrThrow({ where: { action: "set_config" }, orderBy: { id: "desc" } });
    expect(entry.userId).toBe(staff.id);
    expect(entry.extra).toEqual({ key: "event_name", old_value: "Flagship CTF", new_value: "Spring CTF" });
  });

  it("unsets a time with null", async () => {
    const caller = callerFor(world, staff);
    await caller.config.set({ key: "start_time", value: 1_900_000_000 });
    expect(await caller.config.get({ key: "start_time" })).toBe(1_900_000_000);
    await caller.config.set({ key: "start_time", value: null });
    expect(await caller.config.get({ key: "start_time" })).toBeNull();
  });

  it("rejects a value of the wrong type and changes nothing", async () => {
    const before = await world.services.db.auditLog.count();
    await expect(callerFor(world, staff).config.set({ key: "team_size", value: "lots" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(await callerFor(world, staff).config.get({ key: "team_size" })).toBe(CONFIG_DEFAULTS.team_size);
    expect(await world.services.db.auditLog.count()).toBe(before);
  });

  it("refuses writes from players and anonymous callers", async () => {
    await expect(callerFor(world, player).config.set({ key: "event_name", value: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(callerFor(world, null).config.set({ key: "event_name", value: "x" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("takes staff powers from staff without 2FA when enable_force_admin_2fa is on", async () => {
    const admin = await createUser(world, { isStaff: true });
    await callerFor(world, admin).config.set({ key: "enable_force_admin_2fa", value: true });
    await expect(callerFor(world, admin).config.set({ key: "event_name", value: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await world.services.db.config.update({ where: { key: "enable_force_admin_2fa" }, data: { value: false } });
    world.services.config.invalidate();
  });

  it("sets several keys in one call, each audited as set_config", async () => {
    const caller = callerFor(world, staff);
    const before = await world.services.db.auditLog.count({ where: { action: "set_config" } });
    await caller.config.setMany({ team_size: 4, register_end_time: 1_900_000_000, enable_team_leave: true });
    expect(await caller.config.get({ key: "team_size" })).toBe(4);
    expect(await caller.config.get({ key: "register_end_time" })).toBe(1_900_000_000);
    expect(await caller.config.get({ key: "enable_team_leave" })).toBe(true);
    const entries = await world.services.db.auditLog.findMany({ where: { action: "set_config" }, orderBy: { id: "desc" }, take: 3 });
    expect(await world.services.db.auditLog.count({ where: { action: "set_config" } })).toBe(before + 3);
    expect(entries.map((e) => e.extra)).toContainEqual({ key: "team_size", old_value: 0, new_value: 4 });
    await caller.config.setMany({ team_size: 0, register_end_time: null, enable_team_leave: false });
  });

  it("checks every value before writing any, with each error under its key", async () => {
    const caller = callerFor(world, staff);
    const before = await world.services.db.auditLog.count();
    const error = await caller.config.setMany({ event_name: "Fine name", team_size: -1, flag_prefix: "has space" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "BAD_REQUEST", cause: { details: { team_size: [expect.any(String)], flag_prefix: [expect.any(String)] } } });
    expect(await caller.config.get({ key: "event_name" })).not.toBe("Fine name");
    expect(await world.services.db.auditLog.count()).toBe(before);
    await expect(caller.config.setMany({ no_such_key: 1 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(callerFor(world, player).config.setMany({ team_size: 2 })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("stores a key it does not know as given (staff only, audited) and lists it; a key never stored is not_found", async () => {
    await expect(callerFor(world, staff).config.get({ key: "no_such_key" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await callerFor(world, staff).config.set({ key: "no_such_key", value: { any: ["shape", 1] } })).toEqual({ any: ["shape", 1] });
    expect(await callerFor(world, null).config.get({ key: "no_such_key" })).toEqual({ any: ["shape", 1] });
    expect(await callerFor(world, null).config.list()).toMatchObject({ no_such_key: { any: ["shape", 1] } });
    const entry = await world.services.db.auditLog.findFirstOrThrow({ where: { action: "set_config" }, orderBy: { id: "desc" } });
    expect(entry.extra).toEqual({ key: "no_such_key", old_value: null, new_value: { any: ["shape", 1] } });
  });
});

describe("countdown", () => {
  it("reports the gates as epoch seconds with the server time", async () => {
    world.setNow(1_800_000_000);
    await callerFor(world, staff).config.set({ key: "end_time", value: 1_800_086_400 });
    const countdown = await callerFor(world, null).stats.countdown();
    expect(countdown).toEqual({
      countdown_timestamp: null,
      registration_open: null,
      competition_end: 1_800_086_400,
      server_timestamp: new Date(1_800_000_000_000).toISOString(),
    });
    world.setNow(null);
  });
});

describe("the configuration form's schedule", () => {
  it("refuses times that make an impossible schedule, under the field to fix, and saves nothing", async () => {
    const world = await createTestWorld();
    try {
      const staff = await createUser(world, { isStaff: true });
      const caller = callerFor(world, staff);
      await caller.config.setMany({ start_time: 2_000_000_000, end_time: 2_000_086_400 });
      await expect(caller.config.setMany({ end_time: 1_999_999_000, event_name: "Moved" })).rejects.toMatchObject({ cause: { details: { end_time: ["The end must come after the start."] } } });
      expect(await world.services.config.all()).toMatchObject({ end_time: 2_000_086_400, event_name: expect.not.stringMatching("Moved") });
      await caller.config.setMany({ start_time: null, end_time: null });
    } finally {
      await world.close();
    }
  });
});
