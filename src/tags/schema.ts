import { type Static, t } from "elysia";
import { DateTime, Id } from "../http/schemas";
import { LIMITS } from "../http/limits";

export const DEFAULT_TAG_THEME = "#6366f1";
const HexColour = t.String({
  pattern: "^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$",
  error: "must be a hex colour such as #6366f1",
  examples: ["#6366f1"],
});
const Label = t.String({ minLength: 1, maxLength: LIMITS.tagLabelLength, examples: ["Mobile"] });

export const TagSchema = t.Object(
  { id: Id, label: t.String(), theme: t.String(), createdAt: DateTime },
  { title: "Tag" },
);
export type Tag = Static<typeof TagSchema>;

export const TagCreateSchema = t.Object({ label: Label, theme: t.Optional(HexColour) });
export type TagCreate = Static<typeof TagCreateSchema>;

export const TagUpdateSchema = t.Object(
  { label: t.Optional(Label), theme: t.Optional(HexColour) },
  { minProperties: 1 },
);
export type TagUpdate = Static<typeof TagUpdateSchema>;

export const TagParams = t.Object({ tagId: Id });
