import { describe, expect, it } from "vitest";
import type { AuditEntry } from "./audit-log.ts";
import { toUpstreamEntry } from "./upstream-audit.ts";

const entry = (action: string, extra: unknown): AuditEntry => ({ id: 1, action, user: 2, username: "admin", time: "2026-01-01T00:00:00.000Z", extra });

describe("the audit log in upstream's shape", () => {
  it("keeps config changes, and what is not a staff write, as they are", () => {
    const config = entry("set_config", { key: "event_name", old_value: null, new_value: "CTF" });
    expect(toUpstreamEntry(config)).toEqual(config);
    const held = entry("team_join_throttled", { user: 3, team: 4 });
    expect(toUpstreamEntry(held)).toEqual(held);
  });

  it("names entries recorded before old and new values were kept by their fields", () => {
    expect(toUpstreamEntry(entry("update_hint", { id: 7, fields: ["name", "text"] })).extra).toEqual({ model_name: "Hint", model_id: 7, updated_fields: { name: {}, text: {} } });
  });

  it("draws a transfer and a removal from a team as field changes, leaving out nulls the client's tree cannot open", () => {
    expect(toUpstreamEntry(entry("transfer", { team: 5, old: 8, new: 9 }))).toMatchObject({ action: "update_model", extra: { model_name: "Team", model_id: 5, updated_fields: { owner: { old: 8, new: 9 } } } });
    expect(toUpstreamEntry(entry("unteam", { user: 3, team: 5 })).extra).toEqual({ model_name: "Member", model_id: 3, updated_fields: { team: { old: 5 } } });
    expect(toUpstreamEntry(entry("update_challenge", { id: 1, changes: { attempt_limit: { old: null, new: 3 } } })).extra).toEqual({
      model_name: "Challenge",
      model_id: 1,
      updated_fields: { attempt_limit: { new: 3 } },
    });
  });

  it("leaves secrets out at every depth, even of entries that should never have held them", () => {
    const mapped = toUpstreamEntry(entry("create_challenge_server_job", { id: 2, name: "web", registryAuth: { password: "p" }, nested: { token: "t", keep: 1 } }));
    expect(mapped).toEqual({ ...mapped, action: "create_model", extra: { model_name: "ChallengeServerJob", model_id: 2, model_fields: { id: 2, name: "web", nested: { keep: 1 } } } });
    expect(toUpstreamEntry(entry("upload_file", { key: "0123", name: "a.txt", size: 3 })).extra).toEqual({ model_name: "Upload", model_fields: { name: "a.txt", size: 3 } });
  });

  it("draws an action without a mapping of its own as a created model named after it, never as a raw key", () => {
    expect(toUpstreamEntry(entry("import_ctfd", { challenges: 3 }))).toMatchObject({ action: "create_model", extra: { model_name: "ImportCtfd", model_fields: { challenges: 3 } } });
  });
});
