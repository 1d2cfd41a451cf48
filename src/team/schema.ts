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
}

/** How long an invite link works, and a session lasts without signing in again. */
export const INVITE_TTL_MS = 24 * 60 * 60 * 1000;
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;
/** A sign-in link by email works once, within 15 minutes. */
export const SIGN_IN_LINK_TTL_MS = 15 * 60 * 1000;
/** Passwords: long enough to resist guessing, short enough to hash in bounded time. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;
