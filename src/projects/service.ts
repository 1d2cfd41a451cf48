import { type Db, inTransaction } from "../db/connection";
import { ApiError, validationError } from "../http/errors";
import { generateKey, hashKey, keyKindOf, keyPrefix, sameHash } from "./keys";
import { type KeyKind, PLANS, type Plan, type Project, SLUG_PATTERN } from "./schema";
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
    "List the projects with: featureboard project list",
  );
}

export function requireProjectBySlug(db: Db, slug: string): Project {
  const project = store.findProjectBySlug(db, slug);
  if (!project) throw projectNotFound(slug);
  return project;
}

function addKey(db: Db, projectId: string, kind: KeyKind, key: string = generateKey(kind)): string {
  store.insertKey(db, {
    id: Bun.randomUUIDv7(),
    project_id: projectId,
    kind,
    prefix: keyPrefix(key),
    key_hash: hashKey(key),
    created_at: Date.now(),
  });
  return key;
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
      secretKey: addKey(db, project.id, "secret", input.secretKey),
      publishableKey: addKey(db, project.id, "publishable"),
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

export function createKey(db: Db, slug: string, kind: KeyKind): string {
  return inTransaction(db, () => addKey(db, requireProjectBySlug(db, slug).id, kind));
}

/** Revokes the key given whole or by its readable prefix; answers the prefix, or null when none was active. */
export function revokeKey(db: Db, keyOrPrefix: string): string | null {
  const prefix = keyPrefix(keyOrPrefix.trim());
  return store.revokeKeyByPrefix(db, prefix, Date.now()) ? prefix : null;
}

/** Revokes one of this project's keys by its prefix (the dashboard); false when it has no such active key. */
export function revokeProjectKey(db: Db, slug: string, prefix: string): boolean {
  const project = requireProjectBySlug(db, slug);
  return inTransaction(db, () => store.revokeKeyByPrefix(db, prefix.trim(), Date.now(), project.id));
}

export interface KeySummary {
  prefix: string;
  kind: KeyKind;
  createdAt: string;
  revokedAt: string | null;
}

/** A project's keys as an operator may see them: never the key or its hash. */
export function listKeys(db: Db, slug: string): KeySummary[] {
  const project = requireProjectBySlug(db, slug);
  return store.listKeyRows(db, project.id).map((row) => ({
    prefix: row.prefix,
    kind: row.kind,
    createdAt: new Date(row.created_at).toISOString(),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString(),
  }));
}

export function setProjectPlan(db: Db, slug: string, plan: Plan): Project {
  if (!PLANS.includes(plan)) throw validationError("plan", `must be one of ${PLANS.join(", ")}`);
  const project = requireProjectBySlug(db, slug);
  store.updateProjectPlan(db, project.id, plan);
  return { ...project, plan };
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
