import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { i18n } from "../../lib/i18n.ts";
import { auditSentence, type WordedEntry } from "./audit-wording.ts";
import "./texts.ts";

const say = (action: string, extra: unknown, names: WordedEntry["names"] = {}) => auditSentence(i18n.t, { action, extra, names });

/** Every action the server's code writes to the audit log: `writeAudit(db, actor, "action"`, and both of a `cond ? "a" : "b"`. */
function auditedActions(): string[] {
  const root = fileURLToPath(new URL("../../../../../packages/api/src", import.meta.url));
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.includes(".test.")) {
        const source = readFileSync(path, "utf8");
        for (const call of source.matchAll(/writeAudit\(\s*[\w.]+,\s*[\w.]+,\s*([^,{]+),/g)) {
          for (const name of call[1]!.matchAll(/"([a-z_]+)"/g)) found.add(name[1]!);
        }
      }
    }
  };
  walk(root);
  return [...found].sort();
}

describe("the audit log in words", () => {
  it("says what changed on what, by name, with the fields changed", () => {
    expect(say("update_challenge", { id: 4, fields: ["name", "score"], changes: {} }, { subject: "Foo" })).toBe("Changed challenge Foo: name, score");
    expect(say("update_challenge", { id: 4, fields: ["challenge_metadata"] }, { subject: "Foo" })).toBe("Changed challenge Foo: challenge metadata");
    expect(say("edit_team", { team: 3, changes: { name: { old: "a", new: "b" }, is_visible: { old: true, new: false } } }, { team: "Blue" })).toBe("Changed team Blue: name, is visible");
    expect(say("create_hint", { id: 9, challenge: 4, name: "Look closer" }, { challenge: "Foo" })).toBe("Added hint Look closer to Foo");
    expect(say("create_challenge", { id: 4, name: "Foo", category: 2 }, { subject: "Foo", category: "Web" })).toBe("Created challenge Foo in Web");
  });

  it("falls back to the name the entry recorded, then to the record's number, when the record is gone", () => {
    expect(say("delete_challenge", { id: 4, name: "Foo" })).toBe("Deleted challenge Foo");
    expect(say("delete_page", { id: 12 })).toBe("Deleted page #12");
    expect(say("delete_team", { team: 3, name: "Blue", members: [1, 2] })).toBe("Deleted team Blue");
    expect(say("unteam", { user: 7, team: 3 })).toBe("Removed #7 from team #3");
    expect(say("delete_member", { user: 7, username: "alice" })).toBe("Deleted member alice");
  });

  it("words settings, awards, counts and solves", () => {
    expect(say("set_config", { key: "enable_scoring", old_value: true, new_value: false })).toBe("Changed setting Scoring to off");
    expect(say("set_config", { key: "event_name", old_value: "A", new_value: "Spring CTF" })).toBe("Changed setting Event name to “Spring CTF”");
    expect(say("set_config", { key: "scoreboard_freeze_time", old_value: 1, new_value: null })).toBe("Changed setting Scoreboard freezes to not set");
    const date = new Date(2_000_000_000 * 1000).toLocaleString();
    expect(say("set_config", { key: "end_time", new_value: 2_000_000_000 })).toBe(`Changed setting Event ends to ${date}`);
    expect(say("give_award", { award: 1, team: 3, user: null, points: 150, reason: "Bug bounty" }, { team: "Blue" })).toBe("Gave 150 points to team Blue: Bug bounty");
    expect(say("give_award", { award: 1, team: 3, user: 7, points: -40, reason: "Spam" }, { team: "Blue", user: "alice" })).toBe("Took 40 points from player alice: Spam");
    expect(say("remove_award", { award: 1, team: 3, user: null, points: 150, reason: "Bug bounty" }, { team: "Blue" })).toBe("Took back the award of 150 points to team Blue: Bug bounty");
    expect(say("mark_solved", { team: 3, team_name: "Blue", user: 7, challenge: 4, challenge_name: "Foo", first_blood: true })).toBe("Marked Foo solved for team Blue, with first blood");
    expect(say("generate_invites", { amount: 1, max_uses: 1 })).toBe("Generated 1 invite");
    expect(say("delete_category", { id: 2, name: "Web", challenges: [1, 2, 3] })).toBe("Deleted category Web with its 3 challenges");
    expect(say("sign_in_throttled", { user: 7, username: "alice", failures: 10 })).toBe("Blocked sign-in guesses at account alice after 10 failures");
    expect(say("transfer", { team: 3, old: 7, new: 8 }, { team: "Blue", owner: "bob" })).toBe("Made bob captain of team Blue");
    expect(say("sudo", { target_id: 7, target_username: "alice" })).toBe("Started acting as alice");
  });

  it("has a sentence for every action the server audits, and names an unknown one by its code", () => {
    const actions = auditedActions();
    expect(actions.length).toBeGreaterThan(50);
    expect(actions).toContain("update_challenge_server_job");
    for (const action of actions) expect([action, say(action, {})]).not.toEqual([action, `An action of kind ${action}`]);
    expect(say("made_up_action", {})).toBe("An action of kind made_up_action");
  });
});
