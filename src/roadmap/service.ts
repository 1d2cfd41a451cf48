import type { Db } from "../db/connection";
import type { PostStatus } from "../posts/schema";
import { withTags, listPostRows } from "../posts/service";
import type { Roadmap } from "./schema";

function postsIn(db: Db, projectId: string, status: PostStatus) {
  // The status-and-votes index returns them in order; LIMIT -1 is SQLite for "no limit".
  return withTags(db, listPostRows(db, { projectId, status }, "votes", -1, 0));
}

/** Planned, in progress and shipped posts, each group by vote count (ties: newest first). */
export function getRoadmap(db: Db, projectId: string): Roadmap {
  return {
    approved: postsIn(db, projectId, "APPROVED"),
    in_progress: postsIn(db, projectId, "IN_PROGRESS"),
    complete: postsIn(db, projectId, "COMPLETE"),
  };
}
