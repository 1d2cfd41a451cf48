import { type Static, t } from "elysia";
import { DateTime, Id } from "../http/schemas";
import { LIMITS } from "../http/limits";

const AnonymousId = t.String({
  minLength: 1,
  maxLength: LIMITS.anonymousIdLength,
  description: "A stable id of a voter without an account",
});

export const VoteSchema = t.Object(
  {
    id: Id,
    boardUserId: t.Nullable(t.String()),
    anonymousId: t.Nullable(t.String()),
    createdAt: DateTime,
    boardUserName: t.Nullable(t.String()),
    boardUserEmail: t.Nullable(t.String()),
  },
  { title: "Vote" },
);
export type Vote = Static<typeof VoteSchema>;

/** A vote as the dashboard's request page lists it: with the voter's monthly spend. */
export interface Voter extends Vote {
  userSpend: string | null;
}

export const VoteCreateSchema = t.Object(
  {
    // null reads as "not given", as the Vote resource writes the one a vote does not have: a client that
    // sends back the shape it reads, or fills every field, is not refused for it.
    boardUserId: t.Optional(t.Nullable(Id)),
    anonymousId: t.Optional(t.Nullable(AnonymousId)),
  },
  {
    description:
      "Exactly one of boardUserId (a registered board user) or anonymousId; null counts as not given",
  },
);
export type VoteCreate = Static<typeof VoteCreateSchema>;

export const VotePatchSchema = t.Object({ anonymousId: AnonymousId });

export const VoteParams = t.Object({ postId: Id, voteId: Id });
