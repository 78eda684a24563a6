import { createUser } from "@flagship/api/testing";
import { describe, expect, it } from "vitest";
import { useContractServer } from "../testing.ts";

const { server } = await useContractServer();

const refused = (field: string) => ({ status: 400, body: { s: false, m: "invalid", d: { [field]: ["Null characters are not allowed."] } } });

describe("a NUL character (U+0000) in the input", () => {
  it("in a query string is 400 invalid on that parameter", async () => {
    const user = await createUser(server.world);
    for (const path of ["/member/?search=%00", "/team/?search=a%00b", "/leaderboard/user/?limit=10&search=%00"]) {
      const res = await server.api("GET", path, { token: user.token });
      expect({ path, status: res.status, body: res.body }).toEqual({ path, ...refused("search") });
    }
  });

  it("in a JSON string is 400 invalid on that field, and changes nothing", async () => {
    const username = "nul\u0000user";
    const res = await server.api("POST", "/auth/register/", {
      payload: JSON.stringify({ username, email: "nul@example.test", password: "a long enough password 42" }),
      headers: { "content-type": "application/json" },
    });
    expect({ status: res.status, body: res.body }).toEqual(refused("username"));
    expect(await server.world.services.db.user.count({ where: { email: "nul@example.test" } })).toBe(0);
  });

  it("in tRPC input (a mutation's body or a query's input) is 400 invalid on that field", async () => {
    const user = await createUser(server.world);
    const login = await server.app.inject({
      method: "POST",
      url: "/trpc/auth.login",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ json: { username: "a\u0000b", password: "x" } }),
    });
    expect(login.statusCode).toBe(400);
    expect(login.json().error.json.data).toMatchObject({ appCode: "invalid", details: { username: ["Null characters are not allowed."] } });
    const input = encodeURIComponent(JSON.stringify({ json: { search: "a\u0000" } }));
    const list = await server.app.inject({ method: "GET", url: `/trpc/users.list?input=${input}`, headers: { authorization: `Token ${user.token}` } });
    expect(list.statusCode).toBe(400);
    expect(list.json().error.json.data).toMatchObject({ appCode: "invalid", details: { search: ["Null characters are not allowed."] } });
  });

  it("nested deeper in a field, or in a key, is refused on the top-level field", async () => {
    const staff = await createUser(server.world, { isStaff: true });
    const nested = await server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "Nested", metadata: { list: ["ok", "bad\u0000"] } } });
    expect({ status: nested.status, body: nested.body }).toEqual(refused("metadata"));
    const key = await server.api("POST", "/challenges/categories/", { token: staff.token, body: { ["na\u0000me"]: "Key" } });
    expect({ status: key.status, body: key.body }).toEqual(refused("non_field_errors"));
  });
});
