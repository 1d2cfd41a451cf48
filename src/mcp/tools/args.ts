import { type TSchema, Type } from "@sinclair/typebox";
import { POST_STATUSES } from "../../posts/schema";
import { MAX_PAGE } from "../../http/paging";
import { LIMITS } from "../../http/limits";

/** Argument schemas shared by several tools (snake_case, mirroring the REST fields). */

export const Id = (description: string) =>
  Type.String({ minLength: 1, maxLength: LIMITS.idLength, description });
export const PostId = Id("The post's id");
export const PostStatus = Type.Union(
  POST_STATUSES.map((status) => Type.Literal(status)),
  { description: "PENDING, APPROVED, IN_PROGRESS, COMPLETE, CLOSED or ARCHIVED" },
);
export const Title = Type.String({
  minLength: 1,
  maxLength: LIMITS.postTitleLength,
  description: `1 to ${LIMITS.postTitleLength} characters`,
});
export const Description = Type.Union(
  [Type.String({ maxLength: LIMITS.postDescriptionLength }), Type.Null()],
  {
    description: `Up to ${LIMITS.postDescriptionLength} characters; null clears it`,
  },
);
export const TagIds = Type.Array(Type.String({ minLength: 1, maxLength: LIMITS.idLength }), {
  maxItems: LIMITS.tagsPerPost,
  uniqueItems: true,
  description: "Tag ids (list_tags); replaces the post's tags",
});
export const Metadata = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
  description: "Private context object; replaces the stored one; null clears it",
});
export const Page = Type.Integer({
  minimum: 1,
  maximum: MAX_PAGE,
  description: `Page number, from 1 to ${MAX_PAGE}`,
});
export const Limit = (max: number, fallback: number) =>
  Type.Integer({ minimum: 1, maximum: max, description: `1 to ${max}, default ${fallback}` });

/** Closed argument objects: a misspelt argument is an error, not silently ignored. */
export function Args<P extends Record<string, TSchema>>(properties: P) {
  return Type.Object(properties, { additionalProperties: false });
}

/** Copies the defined entries only, so optional REST fields stay absent rather than `undefined`. */
export function defined<T extends Record<string, unknown>>(
  value: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
