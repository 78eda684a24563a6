import { describe, expect, it } from "vitest";
import {
  emailAllowed,
  groupSecret,
  isEmailShaped,
  linkUserId,
  parseInput,
  parseRate,
  parseThrottleRates,
  twoFactorKind,
  ZRegisterInput,
  ZUpdateSelfInput,
} from "./index.ts";
import { passwordStrength } from "./password.ts";

describe("email rules", () => {
  it("accepts the basic shape only", () => {
    expect(isEmailShaped("a@b.co")).toBe(true);
    expect(isEmailShaped("a@b")).toBe(false);
    expect(isEmailShaped("a b@c.d")).toBe(false);
  });
  it("checks email_domain case-insensitively, with a list", () => {
    expect(emailAllowed("x@Uni.AC.uk", { email_domain: "uni.ac.uk", email_regex: "" })).toBe(true);
    expect(emailAllowed("x@other.uk", { email_domain: "uni.ac.uk", email_regex: "" })).toBe(false);
    expect(emailAllowed("x@b.org", { email_domain: "a.org, @b.org", email_regex: "" })).toBe(true);
    expect(emailAllowed("x@evil-uni.ac.uk", { email_domain: "uni.ac.uk", email_regex: "" })).toBe(false);
  });
  it("matches email_regex against the whole address", () => {
    expect(emailAllowed("s123@school.edu", { email_domain: "", email_regex: "s\\d+@school\\.edu" })).toBe(true);
    expect(emailAllowed("xs123@school.edu.evil", { email_domain: "", email_regex: "s\\d+@school\\.edu" })).toBe(false);
  });
  it("ignores a broken regex instead of locking everyone out", () => {
    expect(emailAllowed("a@b.co", { email_domain: "", email_regex: "(" })).toBe(true);
  });
});

describe("password strength", () => {
  it("scores weak and strong passwords like the client bar", () => {
    expect(passwordStrength("password").strong).toBe(false);
    expect(passwordStrength("password").score).toBe(0);
    expect(passwordStrength("Correct-Horse-Battery-Staple-42").strong).toBe(true);
  });
  it("counts the user's own name against them", () => {
    expect(passwordStrength("johnsmith1990", ["johnsmith1990"]).strong).toBe(false);
  });
  it("gives feedback for a weak password", () => {
    expect(passwordStrength("qwerty").feedback).not.toBe("");
  });
});

describe("registration input", () => {
  it("reports missing fields as required", () => {
    expect(() => parseInput(ZRegisterInput, { email: "a@b.co", password: "x" })).toThrow(
      expect.objectContaining({ code: "required", details: { username: ["This field is required"] } }),
    );
  });
  it("limits usernames to 36 characters", () => {
    expect(() => parseInput(ZRegisterInput, { username: "u".repeat(37), email: "a@b.co", password: "x" })).toThrow(
      expect.objectContaining({ code: "max_length" }),
    );
  });
  it("rejects a malformed email as invalid", () => {
    expect(() => parseInput(ZRegisterInput, { username: "u", email: "nope", password: "x" })).toThrow(
      expect.objectContaining({ code: "invalid" }),
    );
  });
});

describe("profile input", () => {
  it("enforces the settings limits", () => {
    expect(() => parseInput(ZUpdateSelfInput, { bio: "b".repeat(401) })).toThrow(expect.objectContaining({ code: "max_length" }));
    expect(() => parseInput(ZUpdateSelfInput, { discordid: "1".repeat(19) })).toThrow(expect.objectContaining({ code: "max_length" }));
    expect(() => parseInput(ZUpdateSelfInput, { discordid: "12ab" })).toThrow(expect.objectContaining({ code: "invalid" }));
    expect(parseInput(ZUpdateSelfInput, { discordid: "", bio: "b".repeat(400) })).toEqual({ discordid: "", bio: "b".repeat(400) });
  });
  it("drops fields that are not the user's to edit, as older clients send them back", () => {
    expect(parseInput(ZUpdateSelfInput, { is_staff: true, id: 1, email: "x@example.test", bio: "hi" })).toEqual({ bio: "hi" });
  });
});

describe("link uid", () => {
  it("names an account only as a positive int4, in digits", () => {
    expect([7, "7", " 42 ", 2_147_483_647].map(linkUserId)).toEqual([7, 7, 42, 2_147_483_647]);
    expect([0, -1, 1.5, Number.NaN, 2_147_483_648, "abc", "12abc", "1e3", ""].map(linkUserId)).toEqual(Array(9).fill(null));
  });
});

describe("2FA helpers", () => {
  it("tells TOTP codes from backup codes by length", () => {
    expect(twoFactorKind("123456")).toBe("totp");
    expect(twoFactorKind("abcd2345")).toBe("backup");
    expect(twoFactorKind("12345")).toBeNull();
    expect(twoFactorKind("12a456")).toBeNull();
  });
  it("shows the secret in groups of 4", () => {
    expect(groupSecret("JBSWY3DPEHPK3PXPAB")).toBe("JBSW Y3DP EHPK 3PXP AB");
  });
});

describe("throttle rates", () => {
  it("parses counts per period", () => {
    expect(parseRate("5/min")).toEqual({ limit: 5, windowSeconds: 60 });
    expect(parseRate("1000/day")).toEqual({ limit: 1000, windowSeconds: 86_400 });
    expect(parseRate("3/10s")).toEqual({ limit: 3, windowSeconds: 10 });
    expect(parseRate("lots")).toBeNull();
  });
  it("overrides the defaults from a setting and refuses nonsense", () => {
    const rates = parseThrottleRates("login=2/10s");
    expect(rates.login).toEqual({ limit: 2, windowSeconds: 10 });
    expect(rates.register).toEqual({ limit: 10, windowSeconds: 60 });
    expect(() => parseThrottleRates("login=fast")).toThrow(/Invalid throttle rate/);
  });
});
