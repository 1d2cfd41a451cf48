import { keepActingMember, recordActivity } from "../activity/service";
import { type Db, inTransaction } from "../db/connection";
import { notFound, validationError } from "../http/errors";
import { maskSecret } from "../http/secrets";
import { requireSafeUrl, type TargetPolicy } from "../webhooks/service";
import type { IntegrationKind, PutInputs, StoredConfigs, Views } from "./schema";
import * as store from "./store";

export { enabledIntegrations, issueLinksOfPost, issueLinksOfPosts, type IssueLink } from "./store";

function toView<K extends IntegrationKind>(integration: store.Integration<K>): Views[K] {
  const stamps = {
    enabled: integration.enabled,
    createdAt: new Date(integration.createdAt).toISOString(),
    updatedAt: new Date(integration.updatedAt).toISOString(),
  };
  const { kind } = integration;
  const config = integration.config as StoredConfigs[IntegrationKind];
  let view: Views[IntegrationKind];
  if (kind === "team-chat") {
    const c = config as StoredConfigs["team-chat"];
    view = { kind, webhookUrl: maskSecret(c.webhookUrl), channel: c.channel, ...stamps };
  } else if (kind === "community-chat") {
    const c = config as StoredConfigs["community-chat"];
    view = { kind, webhookUrl: maskSecret(c.webhookUrl), ...stamps };
  } else if (kind === "code-host") {
    const c = config as StoredConfigs["code-host"];
    view = {
      kind,
      repoOwner: c.repoOwner,
      repoName: c.repoName,
      accessToken: maskSecret(c.accessToken),
      syncLabels: c.syncLabels,
      autoCreateIssues: c.autoCreateIssues,
      ...stamps,
    };
  } else {
    const c = config as StoredConfigs["issue-tracker"];
    view = {
      kind: "issue-tracker",
      apiKey: maskSecret(c.apiKey),
      teamId: c.teamId,
      autoCreateIssues: c.autoCreateIssues,
      ...stamps,
    };
  }
  return view as Views[K];
}

function requireIntegration<K extends IntegrationKind>(
  db: Db,
  projectId: string,
  kind: K,
): store.Integration<K> {
  const found = store.findIntegration(db, projectId, kind);
  if (!found) throw notFound("INTEGRATION_NOT_FOUND");
  return found;
}

/** The integration of that kind, or null when the project has not set it up. */
export function findIntegration<K extends IntegrationKind>(
  db: Db,
  projectId: string,
  kind: K,
): Views[K] | null {
  const found = store.findIntegration(db, projectId, kind);
  return found ? toView(found) : null;
}

export function getIntegration<K extends IntegrationKind>(db: Db, projectId: string, kind: K): Views[K] {
  return toView(requireIntegration(db, projectId, kind));
}

/** The stored form of a PUT body: defaults filled in; an omitted access token keeps the stored one. */
function toStored<K extends IntegrationKind>(
  kind: K,
  input: PutInputs[K],
  previous: StoredConfigs[K] | null,
): StoredConfigs[K] {
  let stored: StoredConfigs[IntegrationKind];
  if (kind === "team-chat") {
    const body = input as PutInputs["team-chat"];
    stored = { webhookUrl: body.webhookUrl.trim(), channel: body.channel ?? null };
  } else if (kind === "community-chat") {
    stored = { webhookUrl: (input as PutInputs["community-chat"]).webhookUrl.trim() };
  } else if (kind === "code-host") {
    const body = input as PutInputs["code-host"];
    const before = previous as StoredConfigs["code-host"] | null;
    stored = {
      repoOwner: body.repoOwner.trim(),
      repoName: body.repoName.trim(),
      accessToken: body.accessToken ?? before?.accessToken ?? null,
      syncLabels: body.syncLabels ?? false,
      autoCreateIssues: body.autoCreateIssues ?? false,
    };
  } else {
    const body = input as PutInputs["issue-tracker"];
    const teamId = body.teamId?.trim() || null;
    // Linear's issueCreate needs a team: without one every attempt would fail at the provider.
    if (body.autoCreateIssues === true && teamId === null) {
      throw validationError("teamId", "is required when autoCreateIssues is true");
    }
    stored = { apiKey: body.apiKey, teamId, autoCreateIssues: body.autoCreateIssues ?? false };
  }
  return stored as StoredConfigs[K];
}

/** Creates or replaces an integration; `created` tells the route to answer 201 rather than 200. */
export async function putIntegration<K extends IntegrationKind>(
  db: Db,
  projectId: string,
  kind: K,
  input: PutInputs[K],
  policy: TargetPolicy,
): Promise<{ created: boolean; integration: Views[K] }> {
  const asActingMember = keepActingMember(db);
  if ("webhookUrl" in input) await requireSafeUrl("webhookUrl", input.webhookUrl.trim(), policy);
  return asActingMember(() =>
    inTransaction(db, () => {
      const previous = store.findIntegration(db, projectId, kind);
      const config = toStored(kind, input, previous?.config ?? null);
      store.upsertIntegration(db, projectId, kind, config, input.enabled ?? true, Date.now());
      recordActivity(db, projectId, {
        action: previous ? "updated" : "created",
        entityType: "integration",
        entityId: kind,
        metadata: { enabled: input.enabled ?? true },
      });
      return { created: previous === null, integration: toView(requireIntegration(db, projectId, kind)) };
    }),
  );
}

export function deleteIntegration(db: Db, projectId: string, kind: IntegrationKind): void {
  inTransaction(db, () => {
    requireIntegration(db, projectId, kind);
    store.deleteIntegration(db, projectId, kind);
    recordActivity(db, projectId, { action: "deleted", entityType: "integration", entityId: kind });
  });
}
