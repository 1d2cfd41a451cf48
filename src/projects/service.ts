import type { ActivitySource } from "../activity/schema";
import { recordActivity, sourceOf } from "../activity/service";
import { type Db, inTransaction } from "../db/connection";
import { ApiError, validationError } from "../http/errors";
import { generateKey, hashKey, keyKindOf, keyPrefix, sameHash } from "./keys";
import {
  ACCENT_PATTERN,
  type KeyKind,
  LOGO_MAX_BYTES,
  type LogoType,
  PLANS,
  type Plan,
  type Project,
  SLUG_PATTERN,
} from "./schema";
import * as store from "./store";
import { LIMITS } from "../http/limits";

export interface CreatedProject {
  project: Project;
  secretKey: string;
  publishableKey: string;
}

export interface ProjectInput {
  slug: string;
  name?: string;
  plan?: Plan;
  isPublic?: boolean;
  /** A preset secret key (FEATUREBOARD_BOOTSTRAP_SECRET_KEY); otherwise one is generated. */
  secretKey?: string;
}

export const BOOTSTRAP_SLUG = "default";

function projectNotFound(slug: string): ApiError {
  return new ApiError(
    "PROJECT_NOT_FOUND",
    `No project with slug '${slug}'`,
    // Read by visitors of a board and callers of the public API as much as by operators: no CLI command.
    "Check the project's slug: it is the part of the board's address after /b/.",
  );
}

export function requireProjectBySlug(db: Db, slug: string): Project {
  const project = store.findProjectBySlug(db, slug);
  if (!project) throw projectNotFound(slug);
  return project;
}

function addKey(
  db: Db,
  projectId: string,
  kind: KeyKind,
  key: string = generateKey(kind),
  name: string | null = null,
): { key: string; id: string } {
  const id = Bun.randomUUIDv7();
  store.insertKey(db, {
    id,
    project_id: projectId,
    kind,
    prefix: keyPrefix(key),
    key_hash: hashKey(key),
    name,
    created_at: Date.now(),
  });
  return { key, id };
}

/** What an activity entry says of a key, for an auditor: never the key or its hash. */
function keyAudit(key: { prefix: string; kind: KeyKind; name: string | null }) {
  return { prefix: key.prefix, kind: key.kind, name: key.name };
}

export function createProject(db: Db, input: ProjectInput): CreatedProject {
  if (!SLUG_PATTERN.test(input.slug)) {
    throw validationError(
      "slug",
      `must be ${LIMITS.slugMinLength} to ${LIMITS.slugMaxLength} characters of a-z, 0-9 and -`,
    );
  }
  const plan = input.plan ?? "growth";
  if (!PLANS.includes(plan)) throw validationError("plan", `must be one of ${PLANS.join(", ")}`);
  return inTransaction(db, () => {
    if (store.findProjectBySlug(db, input.slug)) {
      throw validationError("slug", `'${input.slug}' is already taken`);
    }
    const project = store.insertProject(
      db,
      {
        id: Bun.randomUUIDv7(),
        slug: input.slug,
        name: input.name?.trim() || input.slug,
        plan,
        isPublic: input.isPublic ?? true,
      },
      Date.now(),
    );
    return {
      project,
      secretKey: addKey(db, project.id, "secret", input.secretKey).key,
      publishableKey: addKey(db, project.id, "publishable").key,
    };
  });
}

/**
 * The first `serve` of an empty database creates project `default` (growth plan, public board) so a new
 * user can call the API at once. Returns null, creating nothing, when any project exists.
 */
export function ensureBootstrapProject(db: Db, presetSecretKey: string | null): CreatedProject | null {
  return inTransaction(db, () => {
    if (store.countProjects(db) > 0) return null;
    return createProject(db, {
      slug: BOOTSTRAP_SLUG,
      name: "Default project",
      plan: "growth",
      isPublic: true,
      ...(presetSecretKey ? { secretKey: presetSecretKey } : {}),
    });
  });
}

/** C0 and C1 control characters and DEL (Unicode category Cc). */
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * A key's optional name, to tell a project's keys apart (docs/dashboard.md): trimmed, blank is no name, at
 * most `apiKeyNameLength` characters, no control characters.
 */
function keyNameOf(name: string | null | undefined): string | null {
  const trimmed = (name ?? "").trim();
  if (trimmed === "") return null;
  if (trimmed.length > LIMITS.apiKeyNameLength) {
    throw validationError("name", `must be at most ${LIMITS.apiKeyNameLength} characters`);
  }
  // A line break or tab forged a row of `keys list`, and NUL or ESC reached the terminal printing it.
  if (CONTROL_CHARACTER.test(trimmed)) {
    throw validationError("name", "must not contain control characters (line breaks, tabs and the like)");
  }
  return trimmed;
}

/** Creates a key (shown once, answered here) and its activity entry, `api_key.created`. */
export function createKey(
  db: Db,
  slug: string,
  kind: KeyKind,
  name: string | null = null,
  source: ActivitySource | null = null,
): string {
  const keyName = keyNameOf(name);
  return inTransaction(db, () => {
    const projectId = requireProjectBySlug(db, slug).id;
    const { key, id } = addKey(db, projectId, kind, undefined, keyName);
    recordActivity(db, projectId, {
      action: "created",
      entityType: "api_key",
      entityId: id,
      metadata: { ...keyAudit({ prefix: keyPrefix(key), kind, name: keyName }), ...sourceOf(source) },
    });
    return key;
  });
}

/** Revokes a key row that is active, with its activity entry `api_key.revoked`. */
function revokeKeyRow(db: Db, key: store.KeyRow, source: ActivitySource | null): void {
  store.revokeKeyByPrefix(db, key.prefix, Date.now(), key.project_id);
  recordActivity(db, key.project_id, {
    action: "revoked",
    entityType: "api_key",
    entityId: key.id,
    metadata: { ...keyAudit(key), ...sourceOf(source) },
  });
}

/**
 * Revokes the key given whole or by its readable prefix, in whichever project it is (`featureboard keys
 * revoke`); answers the prefix, or null when none was active.
 */
export function revokeKey(db: Db, keyOrPrefix: string, source: ActivitySource | null = null): string | null {
  const prefix = keyPrefix(keyOrPrefix.trim());
  return inTransaction(db, () => {
    const key = store.findKeyByPrefix(db, prefix);
    if (!key || key.revoked_at !== null) return null;
    revokeKeyRow(db, key, source);
    return prefix;
  });
}

/** Revokes one of this project's keys by its prefix (the dashboard); false when it has no such active key. */
export function revokeProjectKey(db: Db, slug: string, prefix: string): boolean {
  const project = requireProjectBySlug(db, slug);
  return inTransaction(db, () => {
    const key = store.findKeyByPrefix(db, prefix.trim(), project.id);
    if (!key || key.revoked_at !== null) return false;
    revokeKeyRow(db, key, null);
    return true;
  });
}

/**
 * Names (or renames) one of the project's keys, given whole or by its prefix, with the rules of a name given
 * at creation; a blank name takes the name away. Answers the key's prefix and name, or null when the
 * project has no such key. A name that does not change records nothing; a change records
 * `api_key.renamed`, from → to.
 */
export function renameKey(
  db: Db,
  slug: string,
  keyOrPrefix: string,
  name: string | null,
  source: ActivitySource | null = null,
): { prefix: string; name: string | null } | null {
  const keyName = keyNameOf(name);
  const project = requireProjectBySlug(db, slug);
  return inTransaction(db, () => {
    const key = store.findKeyByPrefix(db, keyPrefix(keyOrPrefix.trim()), project.id);
    if (!key) return null;
    const renamed = { prefix: key.prefix, name: keyName };
    if (key.name === keyName) return renamed;
    store.renameKey(db, key.id, keyName);
    recordActivity(db, project.id, {
      action: "renamed",
      entityType: "api_key",
      entityId: key.id,
      metadata: { prefix: key.prefix, kind: key.kind, from: key.name, to: keyName, ...sourceOf(source) },
    });
    return renamed;
  });
}

export interface KeySummary {
  prefix: string;
  kind: KeyKind;
  /** Given at creation, or null. */
  name: string | null;
  createdAt: string;
  revokedAt: string | null;
}

/** A project's keys as an operator may see them: never the key or its hash. */
export function listKeys(db: Db, slug: string): KeySummary[] {
  const project = requireProjectBySlug(db, slug);
  return store.listKeyRows(db, project.id).map((row) => ({
    prefix: row.prefix,
    kind: row.kind,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString(),
  }));
}

/** Moves the project to another plan (`featureboard project set-plan`), recording `project.plan_changed`. */
export function setProjectPlan(
  db: Db,
  slug: string,
  plan: Plan,
  source: ActivitySource | null = null,
): Project {
  if (!PLANS.includes(plan)) throw validationError("plan", `must be one of ${PLANS.join(", ")}`);
  return inTransaction(db, () => {
    const project = requireProjectBySlug(db, slug);
    if (project.plan === plan) return project;
    store.updateProjectPlan(db, project.id, plan);
    recordActivity(db, project.id, {
      action: "plan_changed",
      entityType: "project",
      entityId: project.id,
      metadata: { from: project.plan, to: plan, ...sourceOf(source) },
    });
    return { ...project, plan };
  });
}

export { findProjectById, listProjects } from "./store";

export interface Authenticated {
  project: Project;
  kind: KeyKind;
  keyId: string;
}

/** Finds the active key by its readable prefix, then compares SHA-256 hashes in constant time. */
export function authenticateKey(db: Db, key: string): Authenticated | null {
  const kind = keyKindOf(key);
  if (kind === null) return null;
  const found = store.findActiveKeyWithProject(db, keyPrefix(key));
  if (!found || found.key.kind !== kind || !sameHash(found.key.key_hash, hashKey(key))) return null;
  return { project: found.project, kind, keyId: found.key.id };
}

/** The settings a team changes on the dashboard: the name, whether the board is public, the accent colour. */
export function updateProjectSettings(
  db: Db,
  projectId: string,
  input: { name: string; isPublic: boolean; accentColor: string | null },
): Project {
  const name = input.name.trim();
  if (name === "" || name.length > LIMITS.projectNameLength) {
    throw validationError("name", `must be 1 to ${LIMITS.projectNameLength} characters`);
  }
  const accentColor = input.accentColor?.trim().toLowerCase() || null;
  if (accentColor !== null && !ACCENT_PATTERN.test(accentColor)) {
    throw validationError("accentColor", "must be a colour written #rrggbb");
  }
  return inTransaction(db, () => {
    const before = store.findProjectById(db, projectId);
    if (!before) throw notFoundProjectId();
    const after = { name, isPublic: input.isPublic, accentColor };
    const changes = (["name", "isPublic", "accentColor"] as const).filter(
      (field) => before[field] !== after[field],
    );
    if (changes.length === 0) return before;
    store.updateProjectSettings(db, projectId, after);
    // Old → new of each setting that changed, so an auditor sees what it was (none of them is a secret).
    recordActivity(db, projectId, {
      action: "updated",
      entityType: "project",
      entityId: projectId,
      metadata: {
        changes,
        from: Object.fromEntries(changes.map((field) => [field, before[field]])),
        to: Object.fromEntries(changes.map((field) => [field, after[field]])),
      },
    });
    return { ...before, ...after };
  });
}

function notFoundProjectId(): ApiError {
  return new ApiError("PROJECT_NOT_FOUND", "The project no longer exists", "Reload the page.");
}

/** What the first bytes of an image say it is; null for anything else (SVG included: it can carry script). */
function imageTypeOf(bytes: Uint8Array): LogoType | null {
  const starts = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (
    starts(0x52, 0x49, 0x46, 0x46) &&
    bytes[8] === 0x57 &&
    bytes[9] === 0x45 &&
    bytes[10] === 0x42 &&
    bytes[11] === 0x50
  ) {
    return "image/webp";
  }
  return null;
}

/**
 * Stores the project's logo in SQLite (served with the board at /b/{slug}/logo). The type is read from the
 * bytes, not taken from the upload, so a script cannot pass for an image.
 */
export function setProjectLogo(db: Db, projectId: string, bytes: Uint8Array): void {
  if (bytes.length === 0) throw validationError("logo", "is empty");
  if (bytes.length > LOGO_MAX_BYTES)
    throw validationError("logo", `must be at most ${LOGO_MAX_BYTES / 1024} KB`);
  const contentType = imageTypeOf(bytes);
  if (!contentType) throw validationError("logo", "must be a PNG, JPEG, WebP or GIF image");
  inTransaction(db, () => {
    store.saveLogo(db, projectId, { contentType, bytes }, Date.now());
    recordActivity(db, projectId, {
      action: "logo_changed",
      entityType: "project",
      entityId: projectId,
      metadata: { contentType, bytes: bytes.length },
    });
  });
}

/** Removes the logo; recorded as `project.logo_removed` only when there was one. */
export function removeProjectLogo(db: Db, projectId: string): void {
  inTransaction(db, () => {
    const project = store.findProjectById(db, projectId);
    if (!project || project.logoVersion === null) return;
    store.deleteLogo(db, projectId);
    recordActivity(db, projectId, {
      action: "logo_removed",
      entityType: "project",
      entityId: projectId,
      metadata: null,
    });
  });
}

export function getProjectLogo(db: Db, projectId: string): { contentType: string; bytes: Uint8Array } | null {
  return store.findLogo(db, projectId);
}
