import type { Comment } from "../comments/schema";
import type { IssueLink, Post, PostStatus, PostWithTags } from "../posts/schema";
import type { Release } from "../releases/schema";
import type { Tag } from "../tags/schema";
import type { BoardUser } from "../users/schema";
import type { Vote } from "../votes/schema";

/**
 * Every event featureboard emits (docs/webhooks.md); webhook endpoints subscribe to these or to `*`.
 * `tag.updated`, `vote.updated` and `user.created` are additions (docs/decisions.md): every change to the
 * board emits an event.
 */
export const EVENT_TYPES = [
  "post.created",
  "post.updated",
  "post.status_changed",
  "post.deleted",
  "post.merged",
  "vote.created",
  "vote.updated",
  "vote.removed",
  "comment.created",
  "comment.updated",
  "comment.deleted",
  "tag.created",
  "tag.updated",
  "tag.deleted",
  "release.published",
  "user.created",
  "user.updated",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** A post as events carry it: with its issue links (never public). */
export type EventPost = Post & { issueLinks: IssueLink[] };
/** A vote as events carry it: with its post and the post's vote count after the change. */
export type EventVote = Vote & { postId: string; voteCount: number };

/**
 * The payload (`data`) of each event type: the contract webhook receivers rely on. `appendEvent` takes
 * `EventDataByType[T]`, so two writers of one event type cannot drift apart, and a type added to
 * EVENT_TYPES without its payload here does not compile.
 */
export interface EventDataByType {
  "post.created": EventPost;
  "post.updated": EventPost;
  "post.status_changed": { post: EventPost; previousStatus: PostStatus; status: PostStatus };
  "post.deleted": PostWithTags;
  "post.merged": {
    post: EventPost;
    into: EventPost;
    movedVotes: number;
    droppedDuplicateVotes: number;
    movedComments: number;
  };
  "vote.created": EventVote;
  "vote.updated": EventVote;
  "vote.removed": EventVote;
  "comment.created": Comment;
  "comment.updated": Comment;
  "comment.deleted": Comment;
  "tag.created": Tag;
  "tag.updated": Tag;
  "tag.deleted": Tag;
  "release.published": Release;
  "user.created": BoardUser;
  "user.updated": BoardUser;
}

/**
 * The one event that is no change on the board: the dashboard's "Send a test event" sends it to one endpoint
 * (docs/webhooks.md, "Test events"). It is not in EVENT_TYPES, so nobody subscribes to it (an endpoint asking
 * for it gets the 400 of an unknown event), `*` does not include it and the fan-out never sees it: it is
 * stored already dispatched, with its one delivery.
 */
export const TEST_EVENT_TYPE = "webhook.test";

/** The test event's `data`. */
export interface TestEventData {
  projectId: string;
  /** The endpoint it was sent to (the `id` of the API's webhook endpoint). */
  endpointId: string;
  message: string;
}

/** The body a webhook receives: `{ type, timestamp, data, projectId }`. */
export interface EventPayload<Data = unknown, Type extends string = EventType> {
  type: Type;
  timestamp: string;
  data: Data;
  projectId: string;
}
