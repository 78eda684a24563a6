import { describe, expect, it } from "vitest";
import { INVALID_UTF8_MESSAGE } from "../json-body.ts";
import { authHeader, useContractServer } from "../testing.ts";

/**
 * Bytes that are not UTF-8 in a JSON body were decoded as U+FFFD and stored that way (a fuzz run
 * renamed a category to "\ufffd\ufffd"). Both transports refuse them as 400 `invalid` on the field
 * holding them, and nothing is stored.
 */
const { server, staff } = await useContractServer();

/** A body as raw bytes: JSON text with `flaw` spliced into it where `@` stands. */
function body(json: string, flaw: number[]): Buffer {
  const [before, after] = json.split("@") as [string, string];
  return Buffer.concat([Buffer.from(before, "utf8"), Buffer.from(flaw), Buffer.from(after, "utf8")]);
}

/** A truncated two-byte sequence, a byte never used in UTF-8, an encoded surrogate, an overlong slash, a truncated emoji. */
const FLAWS = [[0xc3, 0x28], [0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf0, 0x9f, 0x9a]];

async function categoryNames(): Promise<string[]> {
  return (await server.world.services.db.category.findMany({ select: { name: true }, orderBy: { id: "asc" } })).map((c) => c.name);
}

describe("bytes that are not UTF-8 in a JSON body", () => {
  it("over REST are 400 invalid on the field holding them, and nothing is stored", async () => {
    const created = await server.api("POST", "/challenges/categories/", { token: staff.token, body: { name: "Crypto", contained_type: "jeopardy", description: "" } });
    expect(created.status).toBe(201);
    const id = created.body.d.id as number;
    const names = await categoryNames();
    for (const flaw of FLAWS) {
      const rename = await server.app.inject({
        method: "PATCH",
        url: `/api/v2/challenges/categories/${id}/`,
        headers: { ...authHeader(staff), "content-type": "application/json; charset=utf-8" },
        payload: body('{"description":"fine","name":"@"}', [...flaw, ...flaw]),
      });
      expect({ flaw, status: rename.statusCode, body: rename.json() }).toEqual({ flaw, status: 400, body: { s: false, m: "invalid", d: { name: [INVALID_UTF8_MESSAGE] } } });
      const create = await server.app.inject({
        method: "POST",
        url: "/api/v2/challenges/categories/",
        headers: { ...authHeader(staff), "content-type": "application/json" },
        payload: body('{"name":"@","contained_type":"jeopardy","description":""}', flaw),
      });
      expect({ flaw, status: create.statusCode, body: create.json() }).toEqual({ flaw, status: 400, body: { s: false, m: "invalid", d: { name: [INVALID_UTF8_MESSAGE] } } });
    }
    // A flaw outside any string, or in a key, has no field to name.
    const outside = await server.app.inject({
      method: "POST",
      url: "/api/v2/challenges/categories/",
      headers: { ...authHeader(staff), "content-type": "application/json" },
      payload: body('{"name":"x"@}', [0xff]),
    });
    expect({ status: outside.statusCode, body: outside.json() }).toEqual({ status: 400, body: { s: false, m: "invalid", d: { non_field_errors: [INVALID_UTF8_MESSAGE] } } });
    expect(await categoryNames()).toEqual(names);
    expect(names).not.toContainEqual(expect.stringContaining("\ufffd"));
  });

  it("over REST keep well-formed text beyond ASCII, U+FFFD itself included", async () => {
    const res = await server.app.inject({
      method: "POST",
      url: "/api/v2/challenges/categories/",
      headers: { ...authHeader(staff), "content-type": "application/json" },
      payload: Buffer.from(JSON.stringify({ name: "Crypté 🚩 \ufffd", contained_type: "jeopardy", description: "" }), "utf8"),
    });
    expect(res.statusCode).toBe(201);
    expect(await categoryNames()).toContain("Crypté 🚩 \ufffd");
  });

  it("over tRPC are BAD_REQUEST with the app code invalid on the field, and nothing is stored", async () => {
    const names = await categoryNames();
    for (const flaw of FLAWS) {
      const res = await server.app.inject({
        method: "POST",
        url: "/trpc/challenges.createCategory",
        headers: { ...authHeader(staff), "content-type": "application/json" },
        payload: body('{"json":{"description":"","name":"@"}}', flaw),
      });
      const error = res.json().error?.json;
      expect({ flaw, status: res.statusCode, code: error?.data?.code, appCode: error?.data?.appCode, details: error?.data?.details }).toEqual({
        flaw,
        status: 400,
        code: "BAD_REQUEST",
        appCode: "invalid",
        details: { name: [INVALID_UTF8_MESSAGE] },
      });
    }
    // In a batch, on the input's field too.
    const batch = await server.app.inject({
      method: "POST",
      url: "/trpc/challenges.createCategory,challenges.createCategory?batch=1",
      headers: { ...authHeader(staff), "content-type": "application/json" },
      payload: body('{"0":{"json":{"name":"Fine"}},"1":{"json":{"name":"@"}}}', [0xff]),
    });
    expect(batch.statusCode).toBe(400);
    expect(batch.json()[0].error.json.data).toMatchObject({ appCode: "invalid", details: { name: [INVALID_UTF8_MESSAGE] } });
    expect(await categoryNames()).toEqual(names);
  });

  it("over tRPC keep well-formed text as it is", async () => {
    const res = await server.app.inject({
      method: "POST",
      url: "/trpc/challenges.createCategory",
      headers: { ...authHeader(staff), "content-type": "application/json" },
      payload: Buffer.from(JSON.stringify({ json: { name: "Forensik ✓ 🔍" } }), "utf8"),
    });
    expect(res.statusCode).toBe(200);
    expect(await categoryNames()).toContain("Forensik ✓ 🔍");
  });
});
