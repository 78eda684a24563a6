import { SECRET_FIELD } from "../audit/write-audit.ts";
import type { StaffContext } from "../guards.ts";
import { type AuditEntry, listAuditLog } from "./audit-log.ts";

/**
 * The audit log as RACTF's client draws it (GET /admin/audit_log/). Upstream records every staff
 * write but a config change as `create_model` `{model_name, model_fields}`, `update_model`
 * `{model_name, model_id, updated_fields: {field: {old, new}}}` or `destroy_model` `{model_name,
 * model_id, model_fields}`, and its client has a card for those and for `set_config` only (any
 * other action shows its raw translation key). Our entries keep richer names for our own screens;
 * this maps each onto upstream's shape.
 */

type Extra = Record<string, unknown>;
type Kind = "create_model" | "update_model" | "destroy_model";

interface Mapping {
  kind: Kind;
  model: string;
  /** The key of the record's id in our entry's extra. */
  id?: string;
  /** For updates recorded without old and new values: what changed, from the entry's extra. */
  updated?: (extra: Extra) => Extra;
}

const crud = (model: string, id = "id", names: { create?: string; update?: string; delete?: string } = {}): Record<string, Mapping> => {
  const base = model.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
  return {
    [names.create ?? `create_${base}`]: { kind: "create_model", model, id },
    [names.update ?? `update_${base}`]: { kind: "update_model", model, id },
    [names.delete ?? `delete_${base}`]: { kind: "destroy_model", model, id },
  };
};

const MAPPINGS: Record<string, Mapping> = {
  ...crud("Challenge"),
  ...crud("Category"),
  ...crud("File"),
  ...crud("Hint"),
  ...crud("Page"),
  ...crud("Announcement"),
  ...crud("LeaderboardGroup", "id", { update: "edit_leaderboard_group" }),
  ...crud("ChallengeServerJob"),
  upload_file: { kind: "create_model", model: "Upload" },
  edit_team: { kind: "update_model", model: "Team", id: "team" },
  transfer: { kind: "update_model", model: "Team", id: "team", updated: (e) => ({ owner: { old: e.old, new: e.new } }) },
  disqualify_team: { kind: "update_model", model: "Team", id: "team", updated: (e) => ({ disqualified: { old: false, new: true }, incident: e.incident, challenge: e.challenge }) },
  delete_team: { kind: "destroy_model", model: "Team", id: "team" },
  edit_member: { kind: "update_model", model: "Member", id: "user" },
  unteam: { kind: "update_model", model: "Member", id: "user", updated: (e) => ({ team: { old: e.team, new: null } }) },
  oidc_staff_granted: { kind: "update_model", model: "Member", updated: () => ({ is_staff: { old: false, new: true } }) },
  oidc_account_created: { kind: "create_model", model: "Member" },
  delete_member: { kind: "destroy_model", model: "Member", id: "user" },
  identity_linked: { kind: "create_model", model: "IdentityLink", id: "identity" },
  identity_unlinked: { kind: "destroy_model", model: "IdentityLink", id: "identity" },
  create_personal_token: { kind: "create_model", model: "Token" },
  revoke_personal_token: { kind: "destroy_model", model: "Token" },
  sudo: { kind: "create_model", model: "Impersonation", id: "target_id" },
  desudo: { kind: "destroy_model", model: "Impersonation", id: "target_id" },
  generate_invites: { kind: "create_model", model: "InviteCode" },
  redeploy_challenge_server_job: { kind: "update_model", model: "ChallengeServerJob", updated: () => ({ redeployed: { old: false, new: true } }) },
  drain_challenge_server_worker: { kind: "update_model", model: "ChallengeServerWorker", updated: () => ({ draining: { old: false, new: true } }) },
  import_category: { kind: "create_model", model: "Category" },
};

/**
 * Entries kept as they are: config changes, which upstream records this way too, and what is not
 * a staff write at all (a player's team joins held back by the throttle).
 */
const KEPT = new Set(["set_config", "team_join_throttled"]);

/** `import_ctfd` -> `ImportCtfd`: the model name of an action without a mapping of its own. */
const modelNameOf = (action: string) => action.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());

/**
 * What the client's tree may draw: secrets left out at every depth, and no nulls, since the tree
 * opens every value of type "object" and `null` is one (its page would fail to draw at all).
 */
function drawable(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== null && v !== undefined).map(drawable);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Extra)
        .filter(([key, v]) => v !== null && v !== undefined && !SECRET_FIELD.test(key))
        .map(([key, v]) => [key, drawable(v)]),
    );
  }
  return value;
}

/** Our entry's extra without the keys that describe the update itself rather than the record. */
function recordFields(extra: Extra): Extra {
  const { fields: _fields, changes: _changes, ...rest } = extra;
  return rest;
}

/** One entry as upstream records it. */
export function toUpstreamEntry(entry: AuditEntry): AuditEntry {
  if (KEPT.has(entry.action)) return entry;
  const extra: Extra = entry.extra !== null && typeof entry.extra === "object" && !Array.isArray(entry.extra) ? (entry.extra as Extra) : {};
  const mapping = MAPPINGS[entry.action] ?? { kind: "create_model", model: modelNameOf(entry.action) };
  const id = mapping.id === undefined ? undefined : extra[mapping.id];
  const upstream: Extra = { model_name: mapping.model, ...(id !== undefined && id !== null && { model_id: id }) };
  if (mapping.kind === "update_model") {
    // Entries from before old and new values were recorded name their fields only.
    const legacy = Array.isArray(extra.fields) ? Object.fromEntries((extra.fields as unknown[]).map((f) => [String(f), {}])) : {};
    const changes = extra.changes !== null && typeof extra.changes === "object" ? (extra.changes as Extra) : undefined;
    upstream.updated_fields = drawable(mapping.updated?.(extra) ?? changes ?? (Array.isArray(extra.fields) ? legacy : recordFields(extra)));
  } else {
    upstream.model_fields = drawable(recordFields(extra));
  }
  return { ...entry, action: mapping.kind, extra: upstream };
}

/** GET /admin/audit_log/: staff writes newest first, as upstream records them. */
export async function listUpstreamAuditLog(ctx: StaffContext, input: unknown = {}): Promise<AuditEntry[]> {
  return (await listAuditLog(ctx, input)).map(toUpstreamEntry);
}
