import { describe, expect, it } from "vitest";
import { loginHref, loginReason, safeNext } from "./login-reason.ts";

describe("safeNext", () => {
  it.each([
    ["/profile/3", "/profile/3"],
    ["/campaign/web?x=1", "/campaign/web?x=1"],
    ["//evil.example/x", null],
    ["/\\evil.example", null],
    ["https://evil.example", null],
    ["profile/3", null],
    ["/login?next=%2F", null],
    [42, null],
  ])("%s -> %s", (value, expected) => expect(safeNext(value)).toBe(expected));
});

describe("loginHref", () => {
  it("carries the page the visitor wanted, and nothing for the home page", () => {
    expect(loginHref("/profile/ada")).toBe("/login?next=%2Fprofile%2Fada");
    expect(loginHref("/")).toBe("/login");
    expect(loginHref("//evil.example")).toBe("/login");
  });
});

describe("loginReason", () => {
  it.each([
    ["/profile/3", { kind: "profile", ref: 3 }],
    ["/profile/me", { kind: "profile", ref: "me" }],
    ["/profile/Ada%20Lovelace", { kind: "profile", ref: { name: "Ada Lovelace" } }],
    ["/team/7", { kind: "team", ref: 7 }],
    ["/team/The%20Bytes", { kind: "team", ref: { name: "The Bytes" } }],
    ["/team/join", { kind: "page" }],
    ["/campaign", { kind: "page" }],
    ["/profile/%E0%A4%A", { kind: "page" }],
  ])("%s -> %o", (next, expected) => expect(loginReason(next)).toEqual(expected));
});
