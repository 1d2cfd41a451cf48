import type { ActivityEntry } from "../activity/schema";
import { plural } from "../plural";
import { html, type Html } from "../html";
import { type Chrome, href, statusLabel, teamMemberOf } from "./pages";

/** What the Activity screen knows besides the entries: the titles of the requests and releases they name. */
export interface ActivityNames {
  posts: ReadonlyMap<string, string>;
  releases: ReadonlyMap<string, string>;
}

function text(metadata: ActivityEntry["metadata"], name: string): string | null {
  const value = metadata?.[name];
  return typeof value === "string" && value !== "" ? value : null;
}

function count(metadata: ActivityEntry["metadata"], name: string): number | null {
  const value = metadata?.[name];
  return typeof value === "number" ? value : null;
}

/** The field names a change lists (`metadata.changes`), in words: "title, description". */
function changed(metadata: ActivityEntry["metadata"]): string {
  const changes = metadata?.changes;
  if (!Array.isArray(changes)) return "";
  const names = changes.filter((name): name is string => typeof name === "string");
  return names.length === 0 ? "" : ` (${names.join(", ")})`;
}

/** A key as an entry names it: its kind, name and prefix (never the key): "the secret key “CI” (sk_AbCd1234…)". */
function keyOf(metadata: ActivityEntry["metadata"]): string {
  const kind = text(metadata, "kind") ?? "API";
  const prefix = text(metadata, "prefix");
  const name = text(metadata, "name");
  const shown = prefix ? `${prefix}…` : "";
  if (name) return `the ${kind} key “${name}”${shown ? ` (${shown})` : ""}`;
  return `the ${kind} key ${shown}`.trimEnd();
}

/** A key's name in words: “CI”, or "no name". */
function keyName(value: unknown): string {
  return typeof value === "string" && value !== "" ? `“${value}”` : "no name";
}

/** One project setting's value in words (`metadata.from`/`to` of project.updated). */
function settingValue(field: string, value: unknown): string {
  if (field === "isPublic") return value === true ? "public" : "private";
  if (field === "accentColor") return typeof value === "string" ? value : "the default";
  return typeof value === "string" ? `“${value}”` : "none";
}

const SETTING_NAMES: Record<string, string> = {
  name: "name",
  isPublic: "board",
  accentColor: "accent colour",
};

/** The settings a project.updated entry changed, old → new: "name “Acme” → “Acme Inc”, board public → private". */
function settingChanges(metadata: ActivityEntry["metadata"]): string {
  const changes = metadata?.changes;
  const from = metadata?.from;
  const to = metadata?.to;
  if (!Array.isArray(changes) || typeof from !== "object" || typeof to !== "object" || !from || !to)
    return "";
  const before = new Map(Object.entries(from));
  const after = new Map(Object.entries(to));
  const lines = changes
    .filter((field): field is string => typeof field === "string")
    .map(
      (field) =>
        `${SETTING_NAMES[field] ?? field} ${settingValue(field, before.get(field))} → ${settingValue(field, after.get(field))}`,
    );
  return lines.length === 0 ? "" : `: ${lines.join(", ")}`;
}

/** The post ids an entry names: its own, or the request a vote, comment or merge belongs to. */
export function postIdsOf(entry: ActivityEntry): string[] {
  const ids = [
    text(entry.metadata, "postId"),
    text(entry.metadata, "intoPostId"),
    text(entry.metadata, "fromPostId"),
  ];
  if (entry.entityType === "post" && entry.entityId) ids.push(entry.entityId);
  return ids.filter((id): id is string => id !== null);
}

/**
 * An activity entry as a sentence a team member reads ("Priya moved “Dark mode” from Complete to
 * Archived"), the requests and releases it names linked by their titles; never its raw ids or JSON.
 */
export function activitySentence(chrome: Chrome, entry: ActivityEntry, names: ActivityNames): Html {
  const { metadata } = entry;
  const member = teamMemberOf(entry);
  const sources: Record<string, string> = { public: "A visitor on the board", cli: "The command line" };
  const who = member ?? sources[text(metadata, "source") ?? ""] ?? "The API or the board";
  const post = (id: string | null, fallback = "a request"): Html | string => {
    if (id === null) return fallback;
    const title = names.posts.get(id);
    return title === undefined
      ? fallback
      : html`“<a href="${href(chrome, `/admin/posts/${id}`)}">${title}</a>”`;
  };
  const release = (): Html | string => {
    const title = entry.entityId ? names.releases.get(entry.entityId) : undefined;
    if (entry.entityId && title !== undefined) {
      return html`the release “<a href="${href(chrome, `/admin/releases/${entry.entityId}`)}">${title}</a>”`;
    }
    const stored = text(metadata, "title");
    return stored ? html`the release “${stored}”` : "a release";
  };
  const status = (name: string) => statusLabel(text(metadata, name) ?? "?");
  const moved = () => {
    const votes = count(metadata, "movedVotes");
    return votes === null ? "" : ` (${plural(votes, "vote")} moved)`;
  };
  const own = entry.entityId;
  const onPost = post(text(metadata, "postId"));
  const integration = own ? `the ${own.replaceAll("_", " ")} integration` : "an integration";
  const webhook = (url: string | null) =>
    url ? html`the webhook endpoint <span class="url">${url}</span>` : "a webhook endpoint";

  // The webhook worker turns a failing endpoint off on its own: nobody did it.
  if (entry.entityType === "webhook" && entry.action === "disabled") {
    return text(metadata, "reason") === "gone"
      ? html`A webhook endpoint was turned off: its receiver answered 410 Gone (it no longer exists)`
      : html`A webhook endpoint was turned off: its deliveries kept failing`;
  }
  const what = ((): Html | string | null => {
    switch (`${entry.entityType}.${entry.action}`) {
      case "post.created":
        return html`added ${post(own, text(metadata, "title") ? `“${text(metadata, "title")}”` : "a request")}`;
      case "post.updated":
        return html`edited ${post(own)}${changed(metadata)}`;
      case "post.status_changed":
        return html`moved ${post(own)} from ${status("from")} to
        ${status("to")}${metadata?.notify === true ? ", emailing its subscribers" : ""}`;
      case "post.deleted":
        return html`deleted “${text(metadata, "title") ?? "a request"}”`;
      case "post.merged":
        return html`merged ${post(own)} into
        ${post(text(metadata, "intoPostId"), "another request")}${moved()}`;
      case "post.merge_received":
        return html`merged ${post(text(metadata, "fromPostId"), "another request")} into
        ${post(own)}${moved()}`;
      case "post.unsubscribed":
        return html`unsubscribed a subscriber from ${post(own)}`;
      case "vote.created":
        return metadata?.source === "public" ? html`voted on ${onPost}` : html`added a vote on ${onPost}`;
      case "vote.updated":
        return html`changed a vote on ${onPost}`;
      case "vote.deleted":
        return html`removed a vote on ${onPost}`;
      case "comment.created":
        return metadata?.isInternalNote === true
          ? html`added an internal note on ${onPost}`
          : html`commented on ${onPost}`;
      case "comment.updated":
        return html`edited a comment on ${onPost}`;
      case "comment.deleted":
        return html`deleted a comment on ${onPost}`;
      case "tag.created":
        return `created the tag “${text(metadata, "label") ?? "?"}”`;
      case "tag.updated":
        return `changed a tag${changed(metadata)}`;
      case "tag.deleted":
        return `deleted the tag “${text(metadata, "label") ?? "?"}”`;
      case "user.created":
        return `added the board user ${text(metadata, "email") ?? text(metadata, "name") ?? ""}`.trimEnd();
      case "user.updated":
        return `changed a board user${changed(metadata)}`;
      case "user.email_confirmed":
        return `confirmed the email ${text(metadata, "email") ?? "of a board user"} from the link mailed to it`;
      case "release.created":
        return html`wrote ${release()}${metadata?.isDraft === false ? "" : " (a draft)"}`;
      case "release.published":
        return html`published ${release()}`;
      case "release.updated":
        return html`edited ${release()}${changed(metadata)}`;
      case "release.unpublished":
        return html`took ${release()} off the changelog`;
      case "release.deleted":
        return html`deleted ${release()}`;
      case "webhook.created":
        return html`added ${webhook(text(metadata, "url"))}`;
      case "webhook.updated":
        return html`changed a webhook endpoint${changed(metadata)}`;
      case "webhook.secret_rotated":
        return "rotated a webhook endpoint's signing secret";
      case "webhook.delivery_replayed":
        return "sent a webhook delivery again";
      case "webhook.test_sent":
        return "sent a test event to a webhook endpoint";
      case "webhook.deleted":
        return html`deleted ${webhook(text(metadata, "url"))}`;
      case "integration.created":
        return `set up ${integration}`;
      case "integration.updated":
        return `changed ${integration}`;
      case "integration.deleted":
        return `removed ${integration}`;
      case "integration.tested":
        return `tested ${integration}: ${metadata?.ok === true ? "it worked" : "it failed"}`;
      case "integration.synced":
        return `synced ${integration}`;
      case "api_key.created":
        return `created ${keyOf(metadata)}`;
      case "api_key.revoked":
        return `revoked ${keyOf(metadata)}`;
      case "api_key.renamed":
        return `renamed the ${text(metadata, "kind") ?? "API"} key ${text(metadata, "prefix") ?? ""}… from ${keyName(metadata?.from)} to ${keyName(metadata?.to)}`;
      case "invite.created":
        return `invited ${text(metadata, "email") ?? "someone"} as ${text(metadata, "role") ?? "?"}${(count(metadata, "replaced") ?? 0) > 0 ? ", replacing their earlier invite" : ""}`;
      case "invite.withdrawn":
        return `withdrew the invite of ${text(metadata, "email") ?? "someone"} (${text(metadata, "role") ?? "?"})`;
      case "member.joined":
        return `joined the team as ${text(metadata, "role") ?? "?"}, accepting an invite`;
      case "member.role_changed":
        return `changed the role of ${text(metadata, "email") ?? "a member"} from ${text(metadata, "from") ?? "?"} to ${text(metadata, "to") ?? "?"}`;
      case "member.removed":
        return `removed ${text(metadata, "email") ?? "a member"} (${text(metadata, "role") ?? "?"}) from the team`;
      case "project.updated":
        return `changed the project's settings${settingChanges(metadata)}`;
      case "project.plan_changed":
        return `moved the project from the ${text(metadata, "from") ?? "?"} plan to the ${text(metadata, "to") ?? "?"} plan`;
      case "project.logo_changed":
        return "changed the board's logo";
      case "project.logo_removed":
        return "removed the board's logo";
      case "import.imported":
        return `imported ${plural(count(metadata, "imported") ?? 0, "row")} (${count(metadata, "skipped") ?? 0} skipped)`;
      default:
        return null;
    }
  })();
  // A kind of entry this screen has no sentence for still reads as words.
  if (what === null) return html`${who}: ${entry.entityType} ${entry.action.replaceAll("_", " ")}`;
  return html`${who} ${what}`;
}
