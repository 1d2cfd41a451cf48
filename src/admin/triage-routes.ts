import { Elysia } from "elysia";
import { activityOfPost } from "../activity/service";
import { DEFAULT_THRESHOLD, RELATED_THRESHOLD, similarRequests } from "../ai/service";
import type { SimilarPost } from "../ai/similarity";
import { CommentCreateSchema } from "../comments/schema";
import { changeStatusWithMessage, createComment, listThread, newBoardComments } from "../comments/service";
import { ApiError, validationError } from "../http/errors";
import { LIMITS } from "../http/limits";
import { requireValid } from "../http/validation-message";
import { listPosts } from "../posts/listing";
import {
  isPostStatus,
  isVisibleStatus,
  POST_STATUSES,
  PostUpdateSchema,
  type PostStatus,
} from "../posts/schema";
import {
  bulkUpdatePosts,
  findPostRow,
  getPost,
  listTeamPosts,
  mergePosts,
  searchWords,
  TEAM_PAGE_SIZE,
  type TeamSort,
  updatePost,
} from "../posts/service";
import type { Tag } from "../tags/schema";
import { listTags } from "../tags/service";
import { findUser } from "../users/service";
import { castVoteForEmail, listVoters, votersSpendOfPost } from "../votes/service";
import { type DashboardKit, DashboardRefusal, INBOX_LIMIT, toCard, toPage, withNotice } from "./dashboard";
import type { Caller } from "./session";
import { href } from "./pages";
import { markInboxSeen } from "../team/service";
import {
  BULK_STATUS_LABELS,
  COMMENT_LABELS,
  inboxPage,
  type PendingRequest,
  type RequestsQuery,
  requestPage,
  requestsPage,
  requestsParams,
  POST_EDIT_LABELS,
  STATUS_FORM_LABELS,
  VOTE_LABELS,
} from "./triage-pages";

/** Suggestions from the similarity index; a plan or provider refusal becomes a note, not a broken page. */
async function similarOrNote(
  find: () => Promise<SimilarPost[]>,
): Promise<{ similar: SimilarPost[]; note: string | null }> {
  try {
    return { similar: await find(), note: null };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { similar: [], note: `Similar requests are not available: ${error.message}` };
  }
}

/**
 * How many likely duplicates the inbox reads per pending request to find one on the board: the closest
 * may be rejected, shipped or pending itself.
 */
const DUPLICATE_CANDIDATES = 10;

function toSort(value: string | null): TeamSort {
  return value === "revenue" || value === "newest" ? value : "votes";
}

/** The requests table's search, filters, sort and page from a query string; unknown values are dropped. */
function requestsQueryOf(search: URLSearchParams, tags: readonly Tag[]): RequestsQuery {
  const status = search.get("status") ?? "";
  const tagId = search.get("tag") ?? "";
  return {
    q: search.get("q") ?? "",
    status: isPostStatus(status) ? status : "",
    tagId: tags.some((tag) => tag.id === tagId) ? tagId : "",
    withRevenue: search.get("revenue") === "1",
    sort: toSort(search.get("sort")),
    page: toPage(search.get("page")),
  };
}

/** The inbox, the requests table and the request page, and every triage change they make. */
export function triageRoutes(kit: DashboardKit) {
  const { ctx, db, act, view, change, requestPath, backTo } = kit;
  /**
   * A merge button from a page shown before another merge: the request it names was merged meanwhile.
   * Said with the requests' titles, and with the page to open again for today's suggestions; the API's
   * refusal names ids and asks to correct a form that is one button.
   */
  const staleMerge = (caller: Caller, sourceId: string, intoId: string): DashboardRefusal | null => {
    const { projectId } = caller.membership;
    const source = findPostRow(db, projectId, sourceId);
    const into = findPostRow(db, projectId, intoId);
    if (!source || !into) return null;
    const mergedAway = source.merged_into_id ? source : into.merged_into_id ? into : null;
    if (!mergedAway?.merged_into_id) return null;
    const target = findPostRow(db, projectId, mergedAway.merged_into_id);
    const where = target ? `“${target.title}”` : "another request";
    return new DashboardRefusal(
      "VALIDATION_ERROR",
      `Nothing was merged: “${mergedAway.title}” was already merged into ${where}.`,
      mergedAway === source
        ? "Its votes and comments are there already."
        : `Merge into ${where} instead: open the request again to see its current suggestions.`,
      requestPath(caller, sourceId),
    );
  };
  /** The board user who asked for a request (its name, email and monthly spend), when known. */
  const authorOf = (caller: Caller, post: { createdByBoardUserId: string | null }) =>
    post.createdByBoardUserId ? findUser(db, caller.membership.projectId, post.createdByBoardUserId) : null;
  return new Elysia({ name: "admin.triage", detail: { hide: true } })
    .get(
      "/admin",
      view("inbox", async (caller, chrome) => {
        const { projectId } = caller.membership;
        const posts = listPosts(db, projectId, {
          status: "PENDING",
          sort: "date",
          limit: INBOX_LIMIT,
        }).data;
        let similarNote: string | null = null;
        const pending: PendingRequest[] = [];
        for (const post of posts) {
          const found = await similarOrNote(() =>
            similarRequests(ctx.ai, projectId, post.id, {
              threshold: DEFAULT_THRESHOLD,
              limit: DUPLICATE_CANDIDATES,
            }),
          );
          similarNote ??= found.note;
          // Only a request on the board is offered as the one to merge into (docs/dashboard.md, Inbox).
          const duplicateOf = found.similar.find((similar) => isVisibleStatus(similar.status)) ?? null;
          pending.push({ post, duplicateOf, author: authorOf(caller, post) });
        }
        const seenBefore = caller.membership.inboxSeenAt;
        // Opening the inbox is seeing its comments: the navigation counts only later ones from now on.
        markInboxSeen(db, caller.actor.id, projectId);
        return inboxPage(chrome, {
          pending,
          comments: newBoardComments(db, projectId, INBOX_LIMIT),
          seenBefore,
          similarNote,
        });
      }),
    )
    .get(
      "/admin/requests",
      view("requests", (caller, chrome, url) => {
        const { projectId } = caller.membership;
        const tags = listTags(db, projectId);
        const query = requestsQueryOf(url.searchParams, tags);
        const list = listTeamPosts(
          db,
          {
            projectId,
            statuses: query.status === "" ? [] : [query.status],
            words: searchWords(query.q),
            tagId: query.tagId === "" ? undefined : query.tagId,
            withRevenue: query.withRevenue,
          },
          query.sort,
          query.page,
        );
        return requestsPage(chrome, {
          query,
          statuses: POST_STATUSES,
          tags,
          posts: list.data,
          total: list.total,
          pageSize: TEAM_PAGE_SIZE,
        });
      }),
    )
    .post(
      "/admin/requests/status",
      change(
        "requests",
        (caller, form) => {
          const status = statusOf(form);
          const ids = form.getAll("ids");
          // The requests are ticked in the table, a column with no label of its own: said in those words.
          if (ids.length === 0) throw bulkRefused("No request was selected: nothing was changed");
          if (ids.length > LIMITS.bulkItems) {
            throw bulkRefused(
              `${ids.length} requests were selected; one change takes at most ${LIMITS.bulkItems}`,
            );
          }
          const results = act(caller, () =>
            bulkUpdatePosts(
              db,
              caller.membership.projectId,
              ids.map((id) => ({ id, status })),
            ),
          );
          const failed = results.find((result) => result.status === "error");
          if (failed?.error)
            throw new ApiError("VALIDATION_ERROR", failed.error.message, "The other requests were changed.");
          // Back to the table as it was: the same search, filters, sort and page.
          const list = requestsQueryOf(
            new URLSearchParams(form.get("list") ?? ""),
            listTags(db, caller.membership.projectId),
          );
          return withNotice(
            href({ projectSlug: caller.membership.projectSlug }, "/admin/requests", requestsParams(list)),
            "bulk",
          );
        },
        () => BULK_STATUS_LABELS,
      ),
      { parse: "text" },
    )
    .get(
      "/admin/posts/:postId",
      view("requests", async (caller, chrome, _url, params) => {
        const { projectId } = caller.membership;
        const post = getPost(db, projectId, params.postId ?? "");
        const mergedInto = post.mergedIntoId ? getPost(db, projectId, post.mergedIntoId) : null;
        const found = post.mergedIntoId
          ? { similar: [], note: null }
          : await similarOrNote(() =>
              similarRequests(ctx.ai, projectId, post.id, { threshold: RELATED_THRESHOLD, limit: 5 }),
            );
        return requestPage(chrome, {
          statuses: POST_STATUSES,
          post,
          author: authorOf(caller, post),
          mergedInto,
          tags: listTags(db, projectId),
          similar: found.similar,
          similarNote: found.note,
          voters: listVoters(db, projectId, post.id),
          votersSpend: votersSpendOfPost(db, projectId, post.id),
          comments: listThread(db, projectId, post.id, "all"),
          activity: activityOfPost(db, projectId, post.id, 50),
        });
      }),
    )
    .post(
      "/admin/posts/:postId/status",
      change(
        "requests",
        (caller, form, params) => {
          const postId = params.postId ?? "";
          const status = statusOf(form);
          const notify = form.get("notify") === "true";
          const message = form.get("message") ?? "";
          if (message.trim() === "") {
            act(caller, () => updatePost(db, caller.membership.projectId, postId, { status, notify }));
          } else {
            // The request page's "Message to subscribers": posted as an official reply, sent in the status email.
            // Checked as the form's own field, so a refusal names its label, not the API's `body`.
            const body = requireValid(CommentCreateSchema.properties.body, message, "message");
            act(caller, () =>
              changeStatusWithMessage(db, caller.membership.projectId, postId, {
                status,
                notify,
                message: body,
                authorName: caller.actor.name,
                teamMemberId: caller.actor.id,
              }),
            );
          }
          // Back on the roadmap the moved card is where focus lands (it is in its new column); a card that
          // left the screen (approved or rejected in the inbox, closed from the roadmap) hands over to the next.
          const landOn =
            form.get("back") === "roadmap" && isVisibleStatus(status) ? postId : form.get("next");
          return toCard(
            withNotice(backTo(caller, form.get("back"), requestPath(caller, postId)), "status"),
            landOn,
          );
        },
        // The request page's form; the inbox's and the roadmap's send only a status of their own buttons.
        () => STATUS_FORM_LABELS,
      ),
      { parse: "text" },
    )
    .post(
      "/admin/posts/:postId/edit",
      change(
        "requests",
        (caller, form, params) => {
          const postId = params.postId ?? "";
          const description = form.get("description") ?? "";
          const patch = requireValid(
            PostUpdateSchema,
            {
              title: form.get("title") ?? "",
              description: description.trim() === "" ? null : description,
              tagIds: form.getAll("tagIds"),
            },
            "body",
          );
          act(caller, () => updatePost(db, caller.membership.projectId, postId, patch));
          return withNotice(requestPath(caller, postId), "saved");
        },
        () => POST_EDIT_LABELS,
      ),
      { parse: "text" },
    )
    .post(
      "/admin/posts/:postId/merge",
      change("requests", (caller, form, params) => {
        const into = form.get("into") ?? "";
        const sourceId = params.postId ?? "";
        try {
          act(caller, () => mergePosts(db, caller.membership.projectId, sourceId, into));
        } catch (error) {
          throw staleMerge(caller, sourceId, into) ?? error;
        }
        return toCard(
          withNotice(backTo(caller, form.get("back"), requestPath(caller, into)), "merged"),
          form.get("next"),
        );
      }),
      { parse: "text" },
    )
    .post(
      "/admin/posts/:postId/comments",
      change(
        "requests",
        (caller, form, params) => {
          const postId = params.postId ?? "";
          const isInternalNote = form.get("kind") === "note";
          const { body } = requireValid(CommentCreateSchema, { body: form.get("body") ?? "" }, "body");
          // An official reply shows on the public board with the member's name and a Team badge; a note never does.
          act(caller, () =>
            createComment(db, caller.membership.projectId, postId, {
              body,
              authorName: caller.actor.name,
              isInternalNote,
              teamMemberId: caller.actor.id,
            }),
          );
          return withNotice(requestPath(caller, postId), isInternalNote ? "note" : "reply");
        },
        () => COMMENT_LABELS,
      ),
      { parse: "text" },
    )
    .post(
      "/admin/posts/:postId/votes",
      change(
        "requests",
        (caller, form, params) => {
          const postId = params.postId ?? "";
          act(caller, () =>
            castVoteForEmail(db, caller.membership.projectId, postId, form.get("email") ?? ""),
          );
          return withNotice(requestPath(caller, postId), "vote");
        },
        () => VOTE_LABELS,
      ),
      { parse: "text" },
    );
}

/**
 * A bulk change refused for what was ticked: worded for the member, as a form whose fix is in the table
 * (the API's `ids` names no field they see).
 */
function bulkRefused(message: string): ApiError {
  return new ApiError(
    "VALIDATION_ERROR",
    message,
    "Tick the requests to change in the table, then Change status.",
  );
}

function statusOf(form: URLSearchParams): PostStatus {
  const status = form.get("status") ?? "";
  if (!isPostStatus(status)) throw validationError("status", `must be one of ${POST_STATUSES.join(", ")}`);
  return status;
}
