export const TEAM_ROLES = ["owner", "admin", "member"] as const;
/**
 * `owner`: everything, including keys and members; `admin`: everything but members and keys; `member`:
 * triage (statuses, tags, merge, replies, notes). docs/dashboard.md.
 */
export type TeamRole = (typeof TEAM_ROLES)[number];

export function isTeamRole(value: string): value is TeamRole {
  return (TEAM_ROLES as readonly string[]).includes(value);
}

export interface TeamMember {
  id: string;
  email: string;
  name: string | null;
  hasPassword: boolean;
  createdAt: string;
}

export interface Membership {
  projectId: string;
  projectSlug: string;
  projectName: string;
  role: TeamRole;
  /** When the member last opened this project's inbox (ms; 0: never). */
  inboxSeenAt: number;
}

/** A signed-in team member, as a dashboard request sees them. */
export interface TeamSession {
  member: TeamMember;
  memberships: Membership[];
  csrfToken: string;
  expiresAt: number;
  /** The session's own id, not its token: what "Your account" names it by (docs/dashboard.md). */
  sessionId: string;
}

/**
 * Where a sign-in came from: the client IP the access log and the sign-in limits use (src/http/request-info.ts)
 * and the browser's User-Agent, as sent. Kept with the session and the sign-in history (docs/dashboard.md).
 */
export interface SignInClient {
  ip: string;
  userAgent: string;
}

/** A sign-in made outside a browser (a test, a script calling the service): nothing to show but that. */
export const NO_CLIENT: SignInClient = { ip: "unknown", userAgent: "" };

/** How a member signed in, or `failed`: a wrong password for their email. */
export const SIGN_IN_KINDS = ["password", "link", "invite", "failed"] as const;
export type SignInKind = (typeof SIGN_IN_KINDS)[number];

/** One of the member's live sessions, as "Your account" lists it. */
export interface ActiveSession {
  id: string;
  signedInAt: string;
  /** When it was last used, to the minute at best (SESSION_TOUCH_MS); null for a session from before. */
  lastUsedAt: string | null;
  userAgent: string;
  ip: string;
  /** The session the request came with. */
  current: boolean;
}

export interface SignInEvent {
  kind: SignInKind;
  at: string;
  userAgent: string;
  ip: string;
}

/** How long an invite link works, and a session lasts without signing in again. */
export const INVITE_TTL_MS = 24 * 60 * 60 * 1000;
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;
/**
 * How long a session that ended (signed out, or expired) is kept after it ended, then deleted: no page shows
 * it (Your account lists live sessions only; its sign-in, with when, where from and what device, stays in
 * the sign-in history, bounded apart), so its IP and User-Agent are kept only as long as a session lives,
 * for an operator looking into a lost laptop or a session signed out elsewhere (docs/dashboard.md).
 */
export const ENDED_SESSIONS_KEPT_MS = SESSION_TTL_MS;
/** A sign-in link by email works once, within 15 minutes. */
export const SIGN_IN_LINK_TTL_MS = 15 * 60 * 1000;
/**
 * A session's "last used" is written at most once per this span: often enough to tell an idle session from
 * one in use, rarely enough that a busy dashboard does not write on every request.
 */
export const SESSION_TOUCH_MS = 60 * 1000;
/**
 * Sign-ins kept per account, and failed attempts kept per account, each counted apart, so someone guessing
 * a password cannot push the member's own sign-ins out of the history (docs/dashboard.md).
 */
export const SIGN_INS_KEPT = 50;
/** A User-Agent longer than this is kept cut short: a header of any length is no row of any length. */
export const USER_AGENT_KEPT = 512;
/** Passwords: long enough to resist guessing, short enough to hash in bounded time. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;
