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

/** The body a webhook receives: `{ type, timestamp, data, projectId }`. */
export interface EventPayload<Data = unknown> {
  type: EventType;
  timestamp: string;
  data: Data;
  projectId: string;
}
