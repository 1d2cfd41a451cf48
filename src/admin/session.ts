import type { ActingMember } from "../db/connection";
import { ApiError } from "../http/errors";
import { requestInfo } from "../http/request-info";
import type { Membership, SignInClient, TeamSession } from "../team/schema";

/** The session cookie's name; its path is /admin, so no board page or API call ever carries it. */
export const SESSION_COOKIE = "fb_session";

export function sessionTokenOf(request: Request): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE) return value.join("=") || null;
  }
  return null;
}

/**
 * Where a sign-in comes from, as "Your account" shows it: the client IP the access log and the sign-in
 * limits read (src/http/request-info.ts, behind a trusted proxy its X-Forwarded-For entry), and the
 * browser's User-Agent.
 */
export function signInClientOf(request: Request): SignInClient {
  return { ip: requestInfo(request).clientIp, userAgent: request.headers.get("user-agent") ?? "" };
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Lax (no cross-site form carries it),
 * Secure when the public URL is https, scoped to /admin.
 */
export function sessionCookie(publicUrl: string, token: string, maxAgeSeconds: number): string {
  const secure = publicUrl.startsWith("https://") ? "; Secure" : "";
  return `${SESSION_COOKIE}=${token}; Path=/admin; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

/**
 * A dashboard form's fields (application/x-www-form-urlencoded; repeated names such as `ids` kept). The
 * routes read the body as text (`parse: "text"`) and it is decoded here. Browsers send a textarea's line
 * breaks as CRLF (HTML's form encoding); they are turned back into the LF the API stores, so notes,
 * descriptions and replies written in the dashboard equal the same text sent to the API.
 */
export function formOf(request: Request, body: unknown): URLSearchParams {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) {
    throw new ApiError(
      "VALIDATION_ERROR",
      "The dashboard accepts forms only (application/x-www-form-urlencoded)",
      "Submit the form from the dashboard page.",
    );
  }
  const form = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(typeof body === "string" ? body : "")) {
    form.append(name, value.replace(/\r\n?/g, "\n"));
  }
  return form;
}

/** A text field of a parsed multipart form (a file upload), or "". */
export function field(body: unknown, name: string): string {
  if (typeof body !== "object" || body === null) return "";
  const value: unknown = Reflect.get(body, name);
  return typeof value === "string" ? value : "";
}

/** Who is asking, in which project: every dashboard route after sign-in works on this. */
export interface Caller {
  session: TeamSession;
  membership: Membership;
  /** The member as activity entries name them. */
  actor: ActingMember;
}

export function notAMember(): ApiError {
  return new ApiError(
    "ROLE_NOT_ALLOWED",
    "You are not a member of that project",
    "Pick one of your projects, or ask its owner for an invite.",
  );
}

/** The project a request works on: `?project=` / the form's `project`, else the first membership. */
export function callerIn(session: TeamSession, slug: string): Caller {
  const membership =
    slug === ""
      ? session.memberships[0]
      : session.memberships.find((candidate) => candidate.projectSlug === slug);
  if (!membership) throw notAMember();
  return {
    session,
    membership,
    actor: { id: session.member.id, name: session.member.name ?? session.member.email },
  };
}

export function csrfRefused(): ApiError {
  return new ApiError(
    "VALIDATION_ERROR",
    "The form's CSRF token is missing or wrong",
    "Reload the page and submit the form again.",
  );
}
