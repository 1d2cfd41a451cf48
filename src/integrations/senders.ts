import { keepActingMember, recordActivity } from "../activity/service";
import type { Config } from "../config";
import { type Db, inTransaction } from "../db/connection";
import type { EventPayload } from "../events/catalogue";
import { type CallOutcome, callOnce } from "../http/outbound";
import { isVisibleStatus } from "../posts/schema";
import * as posts from "../posts/service";
import { findProjectById } from "../projects/service";
import type { IntegrationKind, StoredConfigs } from "./schema";
import * as store from "./store";

/**
 * What each integration does with an event. Chat tools hear about new posts and new public comments, and
 * never about a status change (the specification: PATCH sends no chat messages); their messages are built
 * from titles and bodies only, so a post's private metadata can never reach them. The community chat is
 * public: it hears only of what the public board shows. The code host and the issue tracker open one issue
 * when a post becomes APPROVED.
 */

interface PostData {
  id: string;
  title: string;
  description: string | null;
  status: string;
}
interface CommentData {
  postId: string;
  body: string;
  authorName: string | null;
  isInternalNote: boolean;
}
interface StatusChangeData {
  post: PostData;
  status: string;
}

/** The post an event approves, if it is one. */
function approvedPost(event: EventPayload): PostData | null {
  if (event.type === "post.created") {
    const post = event.data as PostData;
    return post.status === "APPROVED" ? post : null;
  }
  if (event.type === "post.status_changed") {
    const change = event.data as StatusChangeData;
    return change.status === "APPROVED" ? change.post : null;
  }
  return null;
}

function isChatWorthy(event: EventPayload): boolean {
  if (event.type === "post.created") return true;
  return event.type === "comment.created" && !(event.data as CommentData).isInternalNote;
}

export function integrationWants(kind: IntegrationKind, configJson: string, event: EventPayload): boolean {
  if (kind === "team-chat" || kind === "community-chat") return isChatWorthy(event);
  const config = JSON.parse(configJson) as StoredConfigs["code-host" | "issue-tracker"];
  return config.autoCreateIssues && approvedPost(event) !== null;
}

const CHAT_LIMIT = 1800;

function clip(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/**
 * How a chat marks text up, and how what people wrote is kept from being read as markup there: anyone can
 * submit a post or a comment, and its text must not ping the channel or show a link under a trusted name.
 */
export interface ChatMarkup {
  bold: (text: string) => string;
  escape: (text: string) => string;
}

/** Slack's mrkdwn: &, < and > are its control characters (`<!channel>`, `<url|shown text>`). */
export const TEAM_CHAT_MARKUP: ChatMarkup = {
  bold: (text) => `*${text}*`,
  escape: (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"),
};

/**
 * Discord's markdown: masked links `[text](url)`, emphasis, code, spoilers anywhere; quotes, headings and
 * lists at a line's start. Mentions are switched off by `allowed_mentions` instead.
 */
export const COMMUNITY_CHAT_MARKUP: ChatMarkup = {
  bold: (text) => `**${text}**`,
  escape: (text) => text.replace(/[\\*_~\x60|[\]()]/g, "\\$&").replace(/^(\s*)([#>-])/gm, "$1\\$2"),
};

/** The plain-text message of a chat notification: titles and bodies only, never metadata. */
export function chatMessage(db: Db, event: EventPayload, markup: ChatMarkup): string {
  const { bold, escape } = markup;
  if (event.type === "post.created") {
    const post = event.data as PostData;
    const description = post.description ? `\n${escape(post.description)}` : "";
    return clip(`New post: ${bold(escape(post.title))}${description}`, CHAT_LIMIT);
  }
  const comment = event.data as CommentData;
  const post = posts.findPostRow(db, event.projectId, comment.postId);
  const author = comment.authorName ? ` from ${escape(comment.authorName)}` : "";
  const title = escape(post?.title ?? comment.postId);
  return clip(`New comment${author} on ${bold(title)}:\n${escape(comment.body)}`, CHAT_LIMIT);
}

/**
 * Whether the public board shows what the event is about: the community chat is public, so a post still
 * PENDING (spam included), closed or on a private board never reaches it. Read at send time.
 */
function shownOnPublicBoard(db: Db, event: EventPayload): boolean {
  if (!findProjectById(db, event.projectId)?.isPublic) return false;
  const postId =
    event.type === "post.created" ? (event.data as PostData).id : (event.data as CommentData).postId;
  const post = posts.findPostRow(db, event.projectId, postId);
  return post !== null && isVisibleStatus(post.status);
}

interface SendOptions {
  config: Config;
  signal: AbortSignal;
}

function outboundOptions(config: Config) {
  return { allowPrivate: config.allowPrivateTargets, timeoutMs: config.delivery.timeoutMs };
}

function postJson(url: string, body: unknown, headers: Record<string, string>, options: SendOptions) {
  return callOnce(
    url,
    {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "featureboard", ...headers },
      body: JSON.stringify(body),
    },
    outboundOptions(options.config),
    options.signal,
  );
}

const SKIPPED: CallOutcome = { ok: true, statusCode: null, error: null, durationMs: 0, responseText: "" };

/** Names the post in every issue featureboard opens, so a later attempt can find an issue it already opened. */
function issueMarker(postId: string): string {
  return `featureboard post ${postId}`;
}

function issueBody(post: PostData, publicUrl: string): string {
  return `${post.description ?? ""}\n\n---\nFrom ${issueMarker(post.id)} (${publicUrl})`.trim();
}

/** Issues opened before the event are not ours; the margin absorbs clock differences with the code host. */
const LOOKUP_MARGIN_MS = 3_600_000;

interface CodeHostIssue {
  number?: number;
  html_url?: string;
  body?: string | null;
}

/**
 * An earlier attempt may have opened the issue and then lost the answer (a time-out, a crash before the
 * link was stored). Before opening one, the repository's issues touched since the event are read (the
 * list endpoint, not search, whose index lags) and one whose body carries the post's marker is taken.
 */
async function findOpenedIssue(
  issuesUrl: string,
  postId: string,
  eventTime: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<{ outcome: CallOutcome; found: CodeHostIssue | null }> {
  const since = new Date(Date.parse(eventTime) - LOOKUP_MARGIN_MS).toISOString();
  const query = new URLSearchParams({
    state: "all",
    since,
    sort: "created",
    direction: "desc",
    per_page: "100",
  });
  const outcome = await callOnce(
    `${issuesUrl}?${query}`,
    { method: "GET", headers: { "user-agent": "featureboard", ...headers } },
    outboundOptions(options.config),
    options.signal,
  );
  if (!outcome.ok)
    return {
      outcome: { ...outcome, error: `looking for an issue already opened: ${outcome.error}` },
      found: null,
    };
  const issues = parseJson<CodeHostIssue[]>(outcome.responseText);
  if (!Array.isArray(issues)) {
    return {
      outcome: { ...outcome, ok: false, error: "the code host's issue list is not an array" },
      found: null,
    };
  }
  const marker = issueMarker(postId);
  return { outcome, found: issues.find((issue) => issue.body?.includes(marker)) ?? null };
}

async function openCodeHostIssue(
  db: Db,
  projectId: string,
  config: StoredConfigs["code-host"],
  approved: PostData,
  eventTime: string,
  options: SendOptions,
): Promise<CallOutcome> {
  if (store.findIssueLink(db, approved.id, "code-host")) return SKIPPED;
  const row = posts.findPostRow(db, projectId, approved.id);
  if (!row) return SKIPPED;
  const body: Record<string, unknown> = {
    title: row.title,
    body: issueBody({ ...approved, description: row.description }, options.config.publicUrl),
  };
  if (config.syncLabels)
    body.labels = (posts.tagsOfPosts(db, [row.id]).get(row.id) ?? []).map((tag) => tag.label);
  const headers: Record<string, string> = {
    accept: "application/vnd.github+json",
    "x-github-api-version": "2022-11-28",
  };
  if (config.accessToken) headers.authorization = `Bearer ${config.accessToken}`;
  const base = options.config.providers.codeHostApiUrl;
  const path = `/repos/${encodeURIComponent(config.repoOwner)}/${encodeURIComponent(config.repoName)}/issues`;
  const lookup = await findOpenedIssue(base + path, row.id, eventTime, headers, options);
  if (!lookup.outcome.ok) return lookup.outcome;
  const outcome = lookup.found ? lookup.outcome : await postJson(base + path, body, headers, options);
  if (!outcome.ok) return outcome;
  const created = lookup.found ?? parseJson<CodeHostIssue>(outcome.responseText);
  if (created?.number === undefined || !created.html_url) {
    return { ...outcome, ok: false, error: "the code host's answer lacks number and html_url" };
  }
  const link = { provider: "code-host" as const, externalId: String(created.number), url: created.html_url };
  inTransaction(db, () => store.insertIssueLink(db, row.id, link, Date.now()));
  return outcome;
}

const ISSUE_CREATE = `mutation IssueCreate($input: IssueCreateInput!) {
  issueCreate(input: $input) { success issue { id identifier url } }
}`;

async function openIssueTrackerIssue(
  db: Db,
  projectId: string,
  config: StoredConfigs["issue-tracker"],
  approved: PostData,
  options: SendOptions,
): Promise<CallOutcome> {
  if (store.findIssueLink(db, approved.id, "issue-tracker")) return SKIPPED;
  const row = posts.findPostRow(db, projectId, approved.id);
  if (!row) return SKIPPED;
  const input = {
    teamId: config.teamId,
    title: row.title,
    description: issueBody({ ...approved, description: row.description }, options.config.publicUrl),
  };
  const outcome = await postJson(
    `${options.config.providers.issueTrackerApiUrl}/graphql`,
    { query: ISSUE_CREATE, variables: { input } },
    { authorization: config.apiKey },
    options,
  );
  if (!outcome.ok) return outcome;
  const answer = parseJson<{
    data?: { issueCreate?: { success?: boolean; issue?: { id: string; url: string } } };
    errors?: { message: string }[];
  }>(outcome.responseText);
  const issue = answer?.data?.issueCreate?.issue;
  if (!answer?.data?.issueCreate?.success || !issue) {
    const reason = answer?.errors?.map((error) => error.message).join("; ") ?? "issueCreate did not succeed";
    return { ...outcome, ok: false, error: `issue tracker: ${reason}` };
  }
  const link = { provider: "issue-tracker" as const, externalId: issue.id, url: issue.url };
  inTransaction(db, () => store.insertIssueLink(db, row.id, link, Date.now()));
  return outcome;
}

function parseJson<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** One attempt at handing `event` to the project's `kind` integration; a removed or disabled one is skipped. */
export async function sendToIntegration(
  db: Db,
  kind: IntegrationKind,
  event: EventPayload,
  options: SendOptions,
): Promise<CallOutcome> {
  const integration = store.findIntegration(db, event.projectId, kind);
  if (!integration || !integration.enabled) return SKIPPED;
  if (integration.kind === "team-chat") {
    const config = integration.config as StoredConfigs["team-chat"];
    const text = chatMessage(db, event, TEAM_CHAT_MARKUP);
    const body = config.channel ? { text, channel: config.channel } : { text };
    return postJson(config.webhookUrl, body, {}, options);
  }
  if (integration.kind === "community-chat") {
    const config = integration.config as StoredConfigs["community-chat"];
    if (!shownOnPublicBoard(db, event)) return SKIPPED;
    const content = chatMessage(db, event, COMMUNITY_CHAT_MARKUP);
    return postJson(config.webhookUrl, { content, allowed_mentions: { parse: [] } }, {}, options);
  }
  const approved = approvedPost(event);
  if (!approved) return SKIPPED;
  if (integration.kind === "code-host") {
    return openCodeHostIssue(
      db,
      event.projectId,
      integration.config as StoredConfigs["code-host"],
      approved,
      event.timestamp,
      options,
    );
  }
  return openIssueTrackerIssue(
    db,
    event.projectId,
    integration.config as StoredConfigs["issue-tracker"],
    approved,
    options,
  );
}

/**
 * "Send a test" from the dashboard: proves the settings work without waiting for a real event. Chat tools
 * get a short message; the code host and the issue tracker get a read-only call (the repository, the API
 * key's user), so a test never opens an issue. Runs whether or not the integration is enabled.
 */
export async function sendIntegrationTest(
  db: Db,
  projectId: string,
  kind: IntegrationKind,
  projectName: string,
  options: SendOptions,
): Promise<CallOutcome> {
  const integration = store.findIntegration(db, projectId, kind);
  if (!integration) {
    return { ok: false, statusCode: null, error: "not configured yet", durationMs: 0, responseText: "" };
  }
  const text = (markup: ChatMarkup) =>
    `featureboard test message from ${markup.escape(projectName)}: this integration works.`;
  if (integration.kind === "team-chat") {
    const config = integration.config as StoredConfigs["team-chat"];
    return postJson(
      config.webhookUrl,
      config.channel
        ? { text: text(TEAM_CHAT_MARKUP), channel: config.channel }
        : { text: text(TEAM_CHAT_MARKUP) },
      {},
      options,
    );
  }
  if (integration.kind === "community-chat") {
    const config = integration.config as StoredConfigs["community-chat"];
    return postJson(
      config.webhookUrl,
      { content: text(COMMUNITY_CHAT_MARKUP), allowed_mentions: { parse: [] } },
      {},
      options,
    );
  }
  if (integration.kind === "code-host") {
    const config = integration.config as StoredConfigs["code-host"];
    const headers: Record<string, string> = {
      accept: "application/vnd.github+json",
      "x-github-api-version": "2022-11-28",
      "user-agent": "featureboard",
    };
    if (config.accessToken) headers.authorization = `Bearer ${config.accessToken}`;
    const path = `/repos/${encodeURIComponent(config.repoOwner)}/${encodeURIComponent(config.repoName)}`;
    return callOnce(
      options.config.providers.codeHostApiUrl + path,
      { method: "GET", headers },
      outboundOptions(options.config),
      options.signal,
    );
  }
  const config = integration.config as StoredConfigs["issue-tracker"];
  const outcome = await postJson(
    `${options.config.providers.issueTrackerApiUrl}/graphql`,
    { query: "query { viewer { id name } }" },
    { authorization: config.apiKey },
    options,
  );
  if (!outcome.ok) return outcome;
  const answer = parseJson<{ data?: { viewer?: { id: string } }; errors?: { message: string }[] }>(
    outcome.responseText,
  );
  if (answer?.data?.viewer?.id) return outcome;
  const reason = answer?.errors?.map((error) => error.message).join("; ") ?? "no viewer in the answer";
  return { ...outcome, ok: false, error: `issue tracker: ${reason}` };
}

/**
 * The dashboard's "Send a test" (src/integrations/senders.ts `sendIntegrationTest`): a chat message, or a
 * read-only call to the code host or the issue tracker. Answers what happened, in words for the page.
 */
export async function testIntegration(
  db: Db,
  projectId: string,
  kind: IntegrationKind,
  projectName: string,
  config: Config,
): Promise<{ ok: boolean; message: string }> {
  const asActingMember = keepActingMember(db);
  const outcome = await sendIntegrationTest(db, projectId, kind, projectName, {
    config,
    signal: AbortSignal.timeout(config.delivery.timeoutMs + 1_000),
  });
  asActingMember(() =>
    inTransaction(db, () =>
      recordActivity(db, projectId, {
        action: "tested",
        entityType: "integration",
        entityId: kind,
        metadata: { ok: outcome.ok, statusCode: outcome.statusCode },
      }),
    ),
  );
  if (outcome.ok) return { ok: true, message: `The test reached it (HTTP ${outcome.statusCode ?? "ok"}).` };
  const status = outcome.statusCode === null ? "" : ` (HTTP ${outcome.statusCode})`;
  return { ok: false, message: `The test failed${status}: ${outcome.error ?? "no answer"}` };
}
