import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { seedCategory, seedChallenge } from "../teams/test-factories.ts";
import { register } from "../auth/register.ts";
import { callerFor, contextFor, createTestWorld, createUser, type TestUser, type TestWorld, uniqueName } from "../testing/index.ts";

const STRONG = "Tangerine-Quokka-Marble-91";
let world: TestWorld;
let staff: TestUser;
let player: TestUser;

beforeAll(async () => {
  world = await createTestWorld();
  staff = await createUser(world, { isStaff: true });
  player = await createUser(world);
});
afterAll(() => world.close());

async function setConfig(key: string, value: unknown) {
  await callerFor(world, staff).config.set({ key, value });
}

function signUp(accept?: boolean) {
  const username = uniqueName("signup");
  return { username, email: `${username}@example.test`, password: STRONG, password2: STRONG, ...(accept !== undefined && { accept }) };
}

beforeEach(async () => {
  await world.services.db.page.deleteMany({});
  await setConfig("enable_registration", true);
  await setConfig("registration_provider", "basic_auth");
});

describe("the home page", () => {
  it("is the page at / once staff write it, with the categories players can see", async () => {
    const anon = callerFor(world, null);
    expect((await anon.pages.home()).page).toBeNull();

    const shown = await seedCategory(world, uniqueName("Web "));
    await seedChallenge(world, { categoryId: shown.id });
    await seedChallenge(world, { categoryId: shown.id, hidden: true });
    const secret = await seedCategory(world, uniqueName("Secret "));
    await seedChallenge(world, { categoryId: secret.id, hidden: true });
    await seedCategory(world, uniqueName("Empty "));

    const written = await callerFor(world, staff).pages.create({ url: "/", title: "Home", content: "# {{event_name}}\n\n{{categories}}" });
    const home = await anon.pages.home();
    expect(home.page).toEqual(written);
    // Only categories with a visible challenge, counting the visible ones: a hidden challenge stays unknown.
    expect(home.categories.filter((c) => [shown.name, secret.name].includes(c.name))).toEqual([{ id: shown.id, name: shown.name, description: "", challenges: 1 }]);
    expect(home.categories.some((c) => c.name.startsWith("Empty "))).toBe(false);
    const audit = await world.services.db.auditLog.findFirstOrThrow({ where: { action: "create_page" }, orderBy: { id: "desc" } });
    expect(audit.extra).toEqual({ id: written.id, url: "/" });
  });

  it("lists no categories to visitors or players before the start, and all of them to staff", async () => {
    const shown = await seedCategory(world, uniqueName("Early "));
    await seedChallenge(world, { categoryId: shown.id });
    await setConfig("start_time", world.services.now() + 3600);
    try {
      expect((await callerFor(world, null).pages.home()).categories).toEqual([]);
      expect((await callerFor(world, player).pages.home()).categories).toEqual([]);
      expect((await callerFor(world, staff).pages.home()).categories.map((c) => c.name)).toContain(shown.name);
    } finally {
      await setConfig("start_time", null);
    }
  });

  it("is one page: a second page at / is refused", async () => {
    await callerFor(world, staff).pages.create({ url: "/", title: "Home", content: "Hello" });
    await expect(callerFor(world, staff).pages.create({ url: "/", title: "Again", content: "Hello" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(callerFor(world, staff).pages.create({ url: "//", title: "Slashes", content: "Hello" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("pages in the navigation", () => {
  it("lists the pages staff place there, by title, for visitors and players, and audits the choice", async () => {
    const admin = callerFor(world, staff);
    const rules = await admin.pages.create({ url: "/rules", title: "Rules", content: "Play fair." });
    expect(rules.inNav).toBe(false);
    const faq = await admin.pages.create({ url: "faq", title: "FAQ", content: "Ask.", inNav: true });
    await admin.pages.create({ url: "/", title: "Home", content: "Welcome", inNav: true });
    // The home page has its own entry: it is never listed twice.
    expect(await callerFor(world, null).pages.nav()).toEqual([{ url: "faq", title: "FAQ" }]);

    await admin.pages.update({ id: rules.id, data: { inNav: true } });
    expect(await callerFor(world, player).pages.nav()).toEqual([
      { url: "faq", title: "FAQ" },
      { url: "/rules", title: "Rules" },
    ]);
    const audit = await world.services.db.auditLog.findFirstOrThrow({ where: { action: "update_page" }, orderBy: { id: "desc" } });
    expect(audit.extra).toMatchObject({ id: rules.id, fields: ["inNav"] });
    expect(JSON.stringify(audit.extra)).toContain("inNav");

    // An edit that does not mention the choice keeps it.
    await admin.pages.update({ id: faq.id, data: { content: "Ask us." } });
    expect((await admin.pages.nav()).map((p) => p.title)).toEqual(["FAQ", "Rules"]);
    await admin.pages.update({ id: faq.id, data: { inNav: false } });
    expect((await admin.pages.nav()).map((p) => p.title)).toEqual(["Rules"]);
  });

  it("is placed by staff only", async () => {
    const page = await callerFor(world, staff).pages.create({ url: "/about", title: "About", content: "Us." });
    await expect(callerFor(world, player).pages.update({ id: page.id, data: { inNav: true } })).rejects.toThrow();
    expect(await callerFor(world, null).pages.nav()).toEqual([]);
  });
});

describe("the pre-event check of pages", () => {
  it("asks for terms, privacy and a home page while players sign up, and passes once they are written", async () => {
    const caller = callerFor(world, staff);
    expect(await caller.pages.check()).toEqual([
      { issue: "terms_missing", url: "/terms" },
      { issue: "privacy_missing", url: "/privacy" },
      { issue: "home_default", url: "/" },
    ]);
    await caller.pages.create({ url: "/terms", title: "Terms of use", content: "Play fair." });
    await caller.pages.create({ url: "privacy", title: "Privacy", content: "We keep your email." });
    expect(await caller.pages.check()).toEqual([{ issue: "home_default", url: "/" }]);
    await caller.pages.create({ url: "/", title: "Home", content: "Welcome" });
    expect(await caller.pages.check()).toEqual([]);
  });

  it("needs no terms while sign-up is off or by single sign-on only", async () => {
    await setConfig("enable_registration", false);
    expect((await callerFor(world, staff).pages.check()).map((e) => e.issue)).toEqual(["home_default"]);
    await setConfig("enable_registration", true);
    await setConfig("registration_provider", "oidc");
    expect((await callerFor(world, staff).pages.check()).map((e) => e.issue)).toEqual(["home_default"]);
  });

  it("is for staff only", async () => {
    await expect(callerFor(world, player).pages.check()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(callerFor(world, null).pages.check()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("accepting the terms on sign-up", () => {
  it("is not asked while no terms or privacy page exists", async () => {
    const result = await callerFor(world, null).auth.register(signUp());
    expect(result.verificationRequired).toBe(false);
  });

  it("is required once staff write either page, and recorded", async () => {
    await callerFor(world, staff).pages.create({ url: "/privacy", title: "Privacy", content: "We keep your email." });
    await expect(callerFor(world, null).auth.register(signUp())).rejects.toMatchObject({
      code: "BAD_REQUEST",
      cause: expect.objectContaining({ code: "required", details: { accept: ["You must accept the terms of use and privacy policy to register."] } }),
    });
    await expect(callerFor(world, null).auth.register(signUp(false))).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const details = signUp(true);
    await callerFor(world, null).auth.register(details);
    const user = await world.services.db.user.findUniqueOrThrow({ where: { username: details.username }, select: { acceptedTermsAt: true } });
    expect(user.acceptedTermsAt).toBeInstanceOf(Date);
  });

  it("stays optional for the REST API's older clients, which the contract promises", async () => {
    await callerFor(world, staff).pages.create({ url: "/terms", title: "Terms", content: "Play fair." });
    const registered = await register(contextFor(world, null), signUp());
    expect(registered.isStaff).toBe(false);
  });
});
