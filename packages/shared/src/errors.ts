/**
 * The one catalogue of error codes: each code's HTTP status (REST), tRPC code and English message.
 * Domain code throws AppError(code); both transports and the web app read this table.
 */
export type TrpcCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_SUPPORTED"
  | "CONFLICT"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "TOO_MANY_REQUESTS"
  | "INTERNAL_SERVER_ERROR"
  | "SERVICE_UNAVAILABLE";

interface ErrorDef {
  status: number;
  trpc: TrpcCode;
  message: string;
}

const def = (status: number, trpc: TrpcCode, message: string): ErrorDef => ({ status, trpc, message });

export const ERRORS = {
  // Generic transport errors.
  parse_error: def(400, "BAD_REQUEST", "Malformed request."),
  bad_request: def(400, "BAD_REQUEST", "Bad request."),
  not_authenticated: def(401, "UNAUTHORIZED", "You need to be logged in to do that."),
  authentication_failed: def(401, "UNAUTHORIZED", "Your session is no longer valid. Please log in again."),
  permission_denied: def(403, "FORBIDDEN", "You do not have permission to do that."),
  not_found: def(404, "NOT_FOUND", "Not found."),
  method_not_allowed: def(405, "METHOD_NOT_SUPPORTED", "Method not allowed."),
  not_acceptable: def(406, "BAD_REQUEST", "Not acceptable."),
  unsupported_media_type: def(415, "UNSUPPORTED_MEDIA_TYPE", "Unsupported media type: send JSON."),
  throttled: def(429, "TOO_MANY_REQUESTS", "You are being rate-limited."),
  server_error: def(500, "INTERNAL_SERVER_ERROR", "Unknown error occurred."),
  // The database is restarting or unreachable: sent with Retry-After.
  service_unavailable: def(503, "SERVICE_UNAVAILABLE", "The service is briefly unavailable. Please try again in a few seconds."),

  // Field validation codes (status 400; `d` carries the field map).
  required: def(400, "BAD_REQUEST", "This field is required"),
  blank: def(400, "BAD_REQUEST", "This field may not be blank."),
  invalid: def(400, "BAD_REQUEST", "Invalid value."),
  max_length: def(400, "BAD_REQUEST", "This value is too long."),
  min_length: def(400, "BAD_REQUEST", "This value is too short."),
  max_value: def(400, "BAD_REQUEST", "This value is too large."),
  min_value: def(400, "BAD_REQUEST", "This value is too small."),
  unique: def(400, "BAD_REQUEST", "This value is already taken."),

  // Accounts.
  registration_not_open: def(403, "FORBIDDEN", "Registration is not open."),
  weak_password: def(400, "BAD_REQUEST", "Password too weak"),
  email_or_username_in_use: def(400, "BAD_REQUEST", "That username or email is already in use."),
  username_already_exists: def(400, "BAD_REQUEST", "That username is already taken."),
  invalid_email: def(400, "BAD_REQUEST", "Invalid email"),
  invite_required: def(400, "BAD_REQUEST", "An invite code is required to register."),
  invalid_invite: def(403, "FORBIDDEN", "That invite code is not valid."),
  invite_already_used: def(403, "FORBIDDEN", "That invite code has already been used."),
  incorrect_username_or_password: def(401, "UNAUTHORIZED", "Incorrect username or password."),
  email_verification_required: def(401, "UNAUTHORIZED", "Please verify your email address before logging in."),
  login_not_open: def(401, "UNAUTHORIZED", "Login is not open."),
  "2fa_required": def(401, "UNAUTHORIZED", "Two-factor authentication code required."),
  "2fa_not_enabled": def(401, "UNAUTHORIZED", "Two-factor authentication is not enabled for this account."),
  incorrect_2fa: def(401, "UNAUTHORIZED", "Incorrect two-factor code."),
  login_failed: def(401, "UNAUTHORIZED", "Login failed: the code was not accepted."),
  code_incorrect: def(401, "UNAUTHORIZED", "That code is incorrect."),
  invalid_password: def(401, "UNAUTHORIZED", "Your current password is incorrect."),
  invalid_token_or_uid: def(404, "NOT_FOUND", "This link is invalid or has expired."),
  email_already_verified: def(400, "BAD_REQUEST", "This email address is already verified."),
  cannot_impersonate_self: def(400, "BAD_REQUEST", "You cannot impersonate yourself."),
  not_impersonating: def(403, "FORBIDDEN", "You are not impersonating anyone."),
  account_disabled: def(403, "FORBIDDEN", "This account has been disabled."),
  already_set_up: def(409, "CONFLICT", "This event is already set up. Log in to change its settings."),

  // Single sign-on (OpenID Connect).
  sso_not_configured: def(404, "NOT_FOUND", "Single sign-on is not set up on this server."),
  sso_failed: def(401, "UNAUTHORIZED", "Single sign-on did not complete. Please try again."),
  sso_no_account: def(401, "UNAUTHORIZED", "No account is linked to that login. Sign in with your password and link it in Settings."),
  sso_email_missing: def(400, "BAD_REQUEST", "Your provider did not share a verified email address."),
  sso_email_in_use: def(400, "BAD_REQUEST", "An account with this email already exists. Sign in with your password and link your login in Settings."),
  sso_domain_not_allowed: def(403, "FORBIDDEN", "Accounts of your email domain may not sign in here."),
  sso_already_linked: def(400, "BAD_REQUEST", "That login is already linked to another account."),
  sso_link_exists: def(400, "BAD_REQUEST", "Your account is already linked to a login at this provider. Unlink it first."),
  sso_last_login_method: def(400, "BAD_REQUEST", "Set a password first: this login is your account's only way to sign in."),

  // Teams.
  already_in_team: def(403, "FORBIDDEN", "You are already in a team."),
  join_disabled: def(403, "FORBIDDEN", "Joining teams is disabled."),
  leave_disabled: def(403, "FORBIDDEN", "Leaving teams is disabled."),
  invalid_team: def(404, "NOT_FOUND", "No team with that name exists."),
  invalid_team_password: def(403, "FORBIDDEN", "Incorrect team secret."),
  invalid_team_or_password: def(403, "FORBIDDEN", "Incorrect team name or secret."),
  team_full: def(403, "FORBIDDEN", "That team is full."),
  challenge_solved: def(403, "FORBIDDEN", "You cannot leave a team after solving a challenge for them."),
  cannot_leave_team_ownerless: def(403, "FORBIDDEN", "Transfer ownership before leaving: the team still has other members."),
  team_required: def(403, "FORBIDDEN", "You can only submit flags if you are in a team."),

  // Scoreboard.
  not_frozen: def(409, "CONFLICT", "The scoreboard is not frozen."),

  // Challenges.
  flag_submission_disabled: def(403, "FORBIDDEN", "Flag submission is disabled."),
  already_solved_challenge: def(403, "FORBIDDEN", "You have already solved this challenge!"),
  challenge_not_unlocked: def(403, "FORBIDDEN", "This challenge is not unlocked yet."),
  challenge_not_solved: def(403, "FORBIDDEN", "You need to solve this challenge first."),
  havent_solved_challenge: def(403, "FORBIDDEN", "You need to solve this challenge first."),
  hint_already_used: def(403, "FORBIDDEN", "Your team has already used this hint."),
  hint_not_unlocked: def(403, "FORBIDDEN", "Use the hints this one requires first."),
  sync_in_progress: def(409, "CONFLICT", "Another challenge sync is running. Try again once it has finished."),
  sync_lease_lost: def(409, "CONFLICT", "This challenge sync's lease ran out and another sync may have started. Run the sync again."),

  // Challenge servers.
  challenge_server_disabled: def(403, "FORBIDDEN", "Challenge servers are disabled."),
  challenge_server_team_required: def(403, "FORBIDDEN", "You need a team to request a challenge server."),
  challenge_server_error: def(500, "INTERNAL_SERVER_ERROR", "The challenge server could not be reached."),
  challenge_server_limit: def(403, "FORBIDDEN", "Your team runs the most dedicated instances allowed. Let one expire before starting another."),
} as const satisfies Record<string, ErrorDef>;

export type ErrorCode = keyof typeof ERRORS;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(ERRORS, code);
}

export function errorMessage(code: string): string {
  return isErrorCode(code) ? ERRORS[code].message : ERRORS.server_error.message;
}

/** Field errors: `{field: [message, ...]}`, as the REST contract carries them in `d`. */
export type FieldErrors = Record<string, string[]>;

/**
 * A domain error. `details` is the REST `d`: "" by default, a field map for validation failures,
 * or `{reason}` for login failures.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;
  readonly status: number;
  /** Seconds after which trying again should succeed; the transports send it as Retry-After. */
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, options: { message?: string; details?: unknown; retryAfter?: number } = {}) {
    super(options.message ?? ERRORS[code].message);
    this.name = "AppError";
    this.code = code;
    this.details = options.details ?? "";
    this.status = ERRORS[code].status;
    this.retryAfter = options.retryAfter;
  }

  /** A validation failure on one field, with the field's message. */
  static field(code: ErrorCode, field: string, message: string = ERRORS[code].message): AppError {
    return new AppError(code, { message, details: { [field]: [message] } });
  }
}
