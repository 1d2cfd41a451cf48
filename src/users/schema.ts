import { type Static, t } from "elysia";
import { pageQuery } from "../http/paging";
import { DateTime, Id } from "../http/schemas";
import { MAX_SPEND } from "./money";
import { LIMITS } from "../http/limits";

/** What every surface takes for an email address: something@domain.tld, no spaces. */
export const EMAIL_PATTERN = "^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$";
const EMAIL_ADDRESS = new RegExp(EMAIL_PATTERN);

export function isEmailAddress(text: string): boolean {
  return EMAIL_ADDRESS.test(text);
}

export const Email = t.String({
  maxLength: LIMITS.emailLength,
  pattern: EMAIL_PATTERN,
  error: "must be an email address",
  examples: ["ada@example.com"],
});
const Name = t.String({ maxLength: LIMITS.personNameLength });
const Spend = t.Number({
  minimum: 0,
  maximum: MAX_SPEND,
  description: "Monthly spend in currency units, such as 49.9; stored to the cent",
});
const AvatarUrl = t.String({
  maxLength: LIMITS.urlLength,
  pattern: "^https?://",
  error: "must be an http(s) URL",
});

export const BoardUserSchema = t.Object(
  {
    id: Id,
    email: t.Nullable(t.String()),
    name: t.Nullable(t.String()),
    avatarUrl: t.Nullable(t.String()),
    userSpend: t.String({
      description: 'Monthly spend as a decimal string, such as "49.90"',
      examples: ["49.90"],
    }),
    createdAt: DateTime,
  },
  { title: "BoardUser" },
);
export type BoardUser = Static<typeof BoardUserSchema>;

export const UserUpdateSchema = t.Object(
  { userSpend: t.Optional(Spend), name: t.Optional(t.Nullable(Name)), email: t.Optional(t.Nullable(Email)) },
  { minProperties: 1 },
);
export type UserUpdate = Static<typeof UserUpdateSchema>;

export const UserUpsertSchema = t.Object({
  email: Email,
  name: t.Optional(t.Nullable(Name)),
  avatarUrl: t.Optional(t.Nullable(AvatarUrl)),
  userSpend: t.Optional(Spend),
});
export type UserUpsert = Static<typeof UserUpsertSchema>;

export const UserParams = t.Object({ userId: Id });
/** Board users per page when `limit` is left out. */
export const USERS_DEFAULT_LIMIT = 50;
export const UserListQuery = t.Object(pageQuery(100, USERS_DEFAULT_LIMIT));
