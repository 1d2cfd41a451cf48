import { type Static, t } from "elysia";
import { PostWithTagsSchema } from "../posts/schema";

export const RoadmapSchema = t.Object(
  {
    approved: t.Array(PostWithTagsSchema),
    in_progress: t.Array(PostWithTagsSchema),
    complete: t.Array(PostWithTagsSchema),
  },
  { title: "Roadmap" },
);
export type Roadmap = Static<typeof RoadmapSchema>;
