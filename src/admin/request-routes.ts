import { Elysia } from "elysia";
import { CommentPatchSchema } from "../comments/schema";
import { deleteComment, getThreadComment, updateComment } from "../comments/service";
import { validationError } from "../http/errors";
import { requireValid } from "../http/validation-message";
import { PostCreateSchema } from "../posts/schema";
import { deletePost, findPostRow, getPost } from "../posts/service";
import { listTags } from "../tags/service";
import { requireRole } from "../team/service";
import { UserUpdateSchema } from "../users/schema";
import { getUser, updateUser } from "../users/service";
import { createPostForCustomer, removeVote } from "../votes/service";
import { type DashboardKit, withNotice } from "./dashboard";
import { href } from "./pages";
import {
  COMMENT_EDIT_LABELS,
  commentEditPage,
  CUSTOMER_LABELS,
  customerPage,
  NEW_REQUEST_LABELS,
  newRequestPage,
} from "./request-pages";
import type { Caller } from "./session";

/**
 * What the API does to a request beyond triage, from the dashboard (docs/dashboard.md, Request page):
 * file one for a customer, delete one (admins and owners), correct or delete a comment, remove a vote, set a
 * voter's monthly spend. Each goes through its room's service, as the REST call does.
 */
export function requestRoutes(kit: DashboardKit) {
  const { db, act, view, change, requestPath } = kit;
  const requestsPath = (caller: Caller) =>
    href({ projectSlug: caller.membership.projectSlug }, "/admin/requests");
  /** The request a customer's page was opened from (and returns to), when it is one of this project's. */
  const cameFrom = (caller: Caller, postId: string | null) => {
    const row = postId ? findPostRow(db, caller.membership.projectId, postId) : null;
    return row ? { id: row.id, title: row.title } : null;
  };
  return new Elysia({ name: "admin.requests", detail: { hide: true } })
    .get(
      "/admin/requests/new",
      view("requests", (caller, chrome) =>
        newRequestPage(chrome, { tags: listTags(db, caller.membership.projectId) }),
      ),
    )
    .post(
      "/admin/requests/new",
      change(
        "requests",
        (caller, form) => {
          const description = form.get("description") ?? "";
          const input = requireValid(
            PostCreateSchema,
            {
              title: form.get("title") ?? "",
              ...(description.trim() === "" ? {} : { description }),
              status: form.get("status") ?? "PENDING",
              tagIds: form.getAll("tagIds"),
            },
            "body",
          );
          const post = act(caller, () =>
            createPostForCustomer(db, caller.membership.projectId, input, {
              email: form.get("email") ?? "",
              vote: form.get("vote") === "true",
            }),
          );
          return withNotice(requestPath(caller, post.id), "requestCreated");
        },
        () => NEW_REQUEST_LABELS,
      ),
      { parse: "text" },
    )
    .post(
      "/admin/posts/:postId/delete",
      change("requests", (caller, _form, params) => {
        requireRole(caller.membership, "admin", "Deleting a request");
        act(caller, () => deletePost(db, caller.membership.projectId, params.postId ?? ""));
        return withNotice(requestsPath(caller), "requestDeleted");
      }),
      { parse: "text" },
    )
    .get(
      "/admin/posts/:postId/comments/:commentId",
      view("requests", (caller, chrome, _url, params) => {
        const { projectId } = caller.membership;
        const post = getPost(db, projectId, params.postId ?? "");
        return commentEditPage(chrome, {
          post,
          comment: getThreadComment(db, projectId, post.id, params.commentId ?? ""),
        });
      }),
    )
    .post(
      "/admin/posts/:postId/comments/:commentId",
      change(
        "requests",
        (caller, form, params) => {
          const postId = params.postId ?? "";
          const patch = requireValid(CommentPatchSchema, { body: form.get("body") ?? "" }, "body");
          // The comments service never emails for an edit: subscribers keep the first text's email.
          act(caller, () =>
            updateComment(db, caller.membership.projectId, postId, params.commentId ?? "", patch),
          );
          return withNotice(requestPath(caller, postId), "commentEdited");
        },
        () => COMMENT_EDIT_LABELS,
      ),
      { parse: "text" },
    )
    .post(
      "/admin/posts/:postId/comments/:commentId/delete",
      change("requests", (caller, _form, params) => {
        const postId = params.postId ?? "";
        act(caller, () => deleteComment(db, caller.membership.projectId, postId, params.commentId ?? ""));
        return withNotice(requestPath(caller, postId), "commentDeleted");
      }),
      { parse: "text" },
    )
    .post(
      "/admin/posts/:postId/votes/:voteId/delete",
      change("requests", (caller, _form, params) => {
        const postId = params.postId ?? "";
        act(caller, () => removeVote(db, caller.membership.projectId, postId, params.voteId ?? ""));
        return withNotice(requestPath(caller, postId), "voteRemoved");
      }),
      { parse: "text" },
    )
    .get(
      "/admin/users/:userId",
      view("requests", (caller, chrome, url, params) =>
        customerPage(chrome, {
          user: getUser(db, caller.membership.projectId, params.userId ?? ""),
          post: cameFrom(caller, url.searchParams.get("post")),
        }),
      ),
    )
    .post(
      "/admin/users/:userId",
      change(
        "requests",
        (caller, form, params) => {
          const spend = (form.get("userSpend") ?? "").trim();
          if (spend === "") throw validationError("userSpend", "give the monthly spend (0 for none)");
          const name = (form.get("name") ?? "").trim();
          const patch = requireValid(
            UserUpdateSchema,
            { userSpend: Number(spend), name: name === "" ? null : name },
            "body",
          );
          act(caller, () => updateUser(db, caller.membership.projectId, params.userId ?? "", patch));
          const post = cameFrom(caller, form.get("post"));
          return withNotice(post ? requestPath(caller, post.id) : requestsPath(caller), "customerSaved");
        },
        () => CUSTOMER_LABELS,
      ),
      { parse: "text" },
    );
}
