-- The board itself: the customers behind the votes, posts with their tags, votes, comments, subscribers,
-- deletion tombstones and the status-change emails waiting to be sent.

CREATE TABLE board_users (
  id           TEXT PRIMARY KEY,
  project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  email        TEXT,
  name         TEXT,
  avatar_url   TEXT,
  -- Monthly spend in integer cents, so money is never a float.
  spend_cents  INTEGER NOT NULL DEFAULT 0 CHECK (spend_cents >= 0),
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX board_users_project_email ON board_users (project_id, email COLLATE NOCASE) WHERE email IS NOT NULL;
CREATE INDEX board_users_project_created ON board_users (project_id, created_at, id);

CREATE TABLE posts (
  id                        TEXT PRIMARY KEY,
  project_id                TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  title                     TEXT NOT NULL,
  description               TEXT,
  status                    TEXT NOT NULL DEFAULT 'PENDING'
                            CHECK (status IN ('PENDING', 'APPROVED', 'IN_PROGRESS', 'COMPLETE', 'CLOSED', 'ARCHIVED')),
  -- Kept equal to the number of vote rows by every statement that adds, removes or moves a vote, in the
  -- same transaction (src/votes/store.ts); explicit updates cost a quarter of what a trigger does.
  vote_count                INTEGER NOT NULL DEFAULT 0 CHECK (vote_count >= 0),
  metadata                  TEXT,
  created_by_board_user_id  TEXT REFERENCES board_users (id) ON DELETE SET NULL,
  release_id                TEXT,
  merged_into_id            TEXT REFERENCES posts (id) ON DELETE SET NULL,
  created_at                INTEGER NOT NULL,
  updated_at                INTEGER NOT NULL
) STRICT;
-- Offset paging by votes, and cursor/offset paging by date, each with and without a status filter.
CREATE INDEX posts_by_votes ON posts (project_id, vote_count DESC, created_at DESC, id DESC);
CREATE INDEX posts_by_status_votes ON posts (project_id, status, vote_count DESC, created_at DESC, id DESC);
CREATE INDEX posts_by_date ON posts (project_id, created_at DESC, id DESC);
CREATE INDEX posts_by_status_date ON posts (project_id, status, created_at DESC, id DESC);
CREATE INDEX posts_by_updated ON posts (project_id, updated_at);

-- Posts per project and status, kept by triggers, so a listing's total never counts rows. Posts change
-- rarely, so the triggers' cost is paid where it does not matter.
CREATE TABLE post_counts (
  project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  status      TEXT NOT NULL,
  n           INTEGER NOT NULL CHECK (n >= 0),
  PRIMARY KEY (project_id, status)
) STRICT, WITHOUT ROWID;
CREATE TRIGGER post_counts_insert AFTER INSERT ON posts BEGIN
  INSERT INTO post_counts (project_id, status, n) VALUES (NEW.project_id, NEW.status, 1)
  ON CONFLICT (project_id, status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER post_counts_delete AFTER DELETE ON posts BEGIN
  UPDATE post_counts SET n = n - 1 WHERE project_id = OLD.project_id AND status = OLD.status;
END;
CREATE TRIGGER post_counts_status AFTER UPDATE OF status ON posts WHEN OLD.status <> NEW.status BEGIN
  UPDATE post_counts SET n = n - 1 WHERE project_id = OLD.project_id AND status = OLD.status;
  INSERT INTO post_counts (project_id, status, n) VALUES (NEW.project_id, NEW.status, 1)
  ON CONFLICT (project_id, status) DO UPDATE SET n = n + 1;
END;

CREATE TABLE post_tags (
  post_id  TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  tag_id   TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  PRIMARY KEY (post_id, tag_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX post_tags_tag ON post_tags (tag_id);

CREATE TABLE votes (
  id             TEXT PRIMARY KEY,
  project_id     TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  post_id        TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  -- No cascade: removing a board user must remove their votes through code that recounts the posts.
  board_user_id  TEXT REFERENCES board_users (id),
  anonymous_id   TEXT,
  created_at     INTEGER NOT NULL,
  CHECK (board_user_id IS NOT NULL OR anonymous_id IS NOT NULL)
) STRICT;
-- One vote per board user per post and one per anonymous id per post, enforced here, not by a read.
CREATE UNIQUE INDEX votes_one_per_user ON votes (post_id, board_user_id) WHERE board_user_id IS NOT NULL;
-- Not partial: NULLs never collide in a unique index, and a full index also serves lookups by post alone.
CREATE UNIQUE INDEX votes_one_per_anonymous ON votes (post_id, anonymous_id);
-- votes_one_per_anonymous also serves every lookup by post (listing a post's votes, deleting a post);
-- a vote touches as few index pages as possible because voting is the busiest write.
CREATE INDEX votes_project_created ON votes (project_id, created_at);
CREATE INDEX votes_board_user ON votes (board_user_id) WHERE board_user_id IS NOT NULL;

CREATE TABLE comments (
  id              TEXT PRIMARY KEY,
  project_id      TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  post_id         TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  body            TEXT NOT NULL,
  author_name     TEXT,
  board_user_id   TEXT REFERENCES board_users (id) ON DELETE SET NULL,
  anonymous_id    TEXT,
  is_internal     INTEGER NOT NULL DEFAULT 0 CHECK (is_internal IN (0, 1)),
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
) STRICT;
CREATE INDEX comments_post_created ON comments (post_id, created_at, id);
CREATE INDEX comments_project_created ON comments (project_id, created_at);

-- Who hears about a post: its author and its voters (decisions §8); merging moves them to the target.
CREATE TABLE post_subscribers (
  post_id        TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  board_user_id  TEXT NOT NULL REFERENCES board_users (id) ON DELETE CASCADE,
  created_at     INTEGER NOT NULL,
  PRIMARY KEY (post_id, board_user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX post_subscribers_user ON post_subscribers (board_user_id);

-- Deleted posts, so a syncing client can learn of deletions (GET /posts/deleted).
CREATE TABLE post_tombstones (
  post_id     TEXT PRIMARY KEY,
  project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  deleted_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX post_tombstones_project_deleted ON post_tombstones (project_id, deleted_at);

-- A status change made with notify: true asks for an email to the post's subscribers; the mail sender
-- picks these up and marks them sent.
CREATE TABLE status_notifications (
  id               TEXT PRIMARY KEY,
  project_id       TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  post_id          TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  previous_status  TEXT NOT NULL,
  status           TEXT NOT NULL,
  created_at       INTEGER NOT NULL,
  sent_at          INTEGER
) STRICT;
CREATE INDEX status_notifications_unsent ON status_notifications (created_at) WHERE sent_at IS NULL;
