import { t } from "elysia";
import type { AppContext } from "../context";
import { secretKeyRoutes } from "../http/routes";
import { dataOf, errorResponses } from "../http/schemas";
import { PostParams } from "../posts/schema";
import { VoteCreateSchema, VoteParams, VotePatchSchema, VoteSchema } from "./schema";
import * as votes from "./service";

const NoContent = t.Void({ description: "Deleted; no body" });

export function voteRoutes(ctx: AppContext) {
  const { db } = ctx;
  return secretKeyRoutes(ctx, "/api/v1/posts/:postId/votes", "Votes")
    .get("", ({ project, params }) => ({ data: votes.listVotes(db, project.id, params.postId) }), {
      params: PostParams,
      response: {
        200: dataOf(t.Array(VoteSchema), "The post's votes, oldest first"),
        ...errorResponses(404),
      },
      detail: { summary: "List a post's votes" },
    })
    .post(
      "",
      ({ project, params, body, status }) =>
        status(201, { data: votes.castVote(db, project.id, params.postId, body) }),
      {
        params: PostParams,
        body: VoteCreateSchema,
        response: { 201: dataOf(VoteSchema, "The vote"), ...errorResponses(400, 404, 409) },
        detail: {
          summary: "Vote on a post",
          description:
            "One vote per board user and per anonymous id per post; a second one answers 409 DUPLICATE_VOTE.",
        },
      },
    )
    .patch(
      "/:voteId",
      ({ project, params, body }) => ({
        data: votes.changeVoteAnonymousId(db, project.id, params.postId, params.voteId, body.anonymousId),
      }),
      {
        params: VoteParams,
        body: VotePatchSchema,
        response: { 200: dataOf(VoteSchema, "The vote"), ...errorResponses(400, 404, 409) },
        detail: {
          summary: "Re-attribute a vote to an anonymous id",
          description:
            "Replaces anonymousId, clears boardUserId and keeps the vote; 409 when that id already voted.",
        },
      },
    )
    .delete(
      "/:voteId",
      ({ project, params, status }) => {
        votes.removeVote(db, project.id, params.postId, params.voteId);
        return status(204, undefined);
      },
      {
        params: VoteParams,
        response: { 204: NoContent, ...errorResponses(400, 404) },
        detail: {
          summary: "Delete a vote",
          description: "Removes the vote and decrements the post's voteCount atomically.",
        },
      },
    );
}
