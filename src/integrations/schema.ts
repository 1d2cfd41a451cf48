import { type Static, t } from "elysia";
import { DateTime, serviceRule } from "../http/schemas";
import { LIMITS } from "../http/limits";

export const INTEGRATION_KINDS = ["team-chat", "community-chat", "code-host", "issue-tracker"] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

const Secret = t.String({ minLength: 1, maxLength: LIMITS.serviceSecretLength });
const HookUrl = t.String({
  minLength: 1,
  maxLength: LIMITS.urlLength,
  description: "The chat tool's incoming-webhook https URL",
  // The service checks the URL (webhooks/service.ts requireSafeUrl); the document states the rule.
  ...serviceRule({ format: "uri" }),
});
const Masked = t.Nullable(t.String({ description: "Secret, shown as its last 4 characters only" }));
const stamps = { createdAt: DateTime, updatedAt: DateTime };

export const TeamChatPut = t.Object({
  webhookUrl: HookUrl,
  channel: t.Optional(t.Nullable(t.String({ maxLength: LIMITS.integrationLabelLength }))),
  enabled: t.Optional(t.Boolean()),
});
export const CommunityChatPut = t.Object({ webhookUrl: HookUrl, enabled: t.Optional(t.Boolean()) });
/** GitHub's own rules, so a name can never step out of `/repos/{owner}/{repo}` (such as `..`). */
const RepoOwner = t.String({
  pattern: "^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$",
  error:
    "must be a GitHub user or organisation name: letters, digits and single inner hyphens, at most 39 characters",
  description: "The user or organisation: letters, digits and single inner hyphens, at most 39 characters",
});
const RepoName = t.String({
  pattern: "^(?!\\.\\.?$)[A-Za-z0-9._-]{1,100}$",
  error:
    "must be a repository name: letters, digits, '.', '_' and '-', at most 100 characters, not '.' or '..'",
  description: "The repository: letters, digits, '.', '_' and '-', at most 100 characters, not '.' or '..'",
});

export const CodeHostPut = t.Object({
  repoOwner: RepoOwner,
  repoName: RepoName,
  accessToken: t.Optional(Secret),
  enabled: t.Optional(t.Boolean()),
  syncLabels: t.Optional(t.Boolean()),
  autoCreateIssues: t.Optional(t.Boolean()),
});
export const IssueTrackerPut = t.Object({
  apiKey: Secret,
  teamId: t.Optional(t.Nullable(t.String({ maxLength: LIMITS.integrationLabelLength }))),
  enabled: t.Optional(t.Boolean()),
  autoCreateIssues: t.Optional(t.Boolean()),
});

export type TeamChatInput = Static<typeof TeamChatPut>;
export type CommunityChatInput = Static<typeof CommunityChatPut>;
export type CodeHostInput = Static<typeof CodeHostPut>;
export type IssueTrackerInput = Static<typeof IssueTrackerPut>;

/** What is stored per kind: the PUT body with defaults filled in, secrets in full. */
export interface StoredConfigs {
  "team-chat": { webhookUrl: string; channel: string | null };
  "community-chat": { webhookUrl: string };
  "code-host": {
    repoOwner: string;
    repoName: string;
    accessToken: string | null;
    syncLabels: boolean;
    autoCreateIssues: boolean;
  };
  "issue-tracker": { apiKey: string; teamId: string | null; autoCreateIssues: boolean };
}
export interface PutInputs {
  "team-chat": TeamChatInput;
  "community-chat": CommunityChatInput;
  "code-host": CodeHostInput;
  "issue-tracker": IssueTrackerInput;
}

export const TeamChatView = t.Object(
  {
    kind: t.Literal("team-chat"),
    webhookUrl: Masked,
    channel: t.Nullable(t.String()),
    enabled: t.Boolean(),
    ...stamps,
  },
  { title: "TeamChatIntegration" },
);
export const CommunityChatView = t.Object(
  { kind: t.Literal("community-chat"), webhookUrl: Masked, enabled: t.Boolean(), ...stamps },
  { title: "CommunityChatIntegration" },
);
export const CodeHostView = t.Object(
  {
    kind: t.Literal("code-host"),
    repoOwner: t.String(),
    repoName: t.String(),
    accessToken: Masked,
    enabled: t.Boolean(),
    syncLabels: t.Boolean(),
    autoCreateIssues: t.Boolean(),
    ...stamps,
  },
  { title: "CodeHostIntegration" },
);
export const IssueTrackerView = t.Object(
  {
    kind: t.Literal("issue-tracker"),
    apiKey: Masked,
    teamId: t.Nullable(t.String()),
    enabled: t.Boolean(),
    autoCreateIssues: t.Boolean(),
    ...stamps,
  },
  { title: "IssueTrackerIntegration" },
);
export interface Views {
  "team-chat": Static<typeof TeamChatView>;
  "community-chat": Static<typeof CommunityChatView>;
  "code-host": Static<typeof CodeHostView>;
  "issue-tracker": Static<typeof IssueTrackerView>;
}
