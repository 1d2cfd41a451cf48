-- Changelog releases, the posts each one ships, and the id mapping that makes a board-export import
-- idempotent.

CREATE TABLE releases (
  id            TEXT PRIMARY KEY,
  project_id    TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  title         TEXT NOT NULL,
  content       TEXT,
  label         TEXT,
  is_draft      INTEGER NOT NULL DEFAULT 1 CHECK (is_draft IN (0, 1)),
  -- Set when the release is published, cleared when it is unpublished.
  published_at  INTEGER,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  CHECK ((is_draft = 1) = (published_at IS NULL))
) STRICT;
-- The changelog: published releases of a project, newest first.
CREATE INDEX releases_published ON releases (project_id, published_at DESC, id DESC) WHERE is_draft = 0;
CREATE INDEX releases_project_created ON releases (project_id, created_at, id);

-- The posts a release ships (`postIds`); publishing the release archives them with `releaseId` set.
CREATE TABLE release_posts (
  release_id  TEXT NOT NULL REFERENCES releases (id) ON DELETE CASCADE,
  post_id     TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  PRIMARY KEY (release_id, post_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX release_posts_post ON release_posts (post_id);

-- What a board-export import created for each exported entity: importing the same export again finds
-- its entities here and creates nothing twice. `source_id` is the id in the exporting instance.
CREATE TABLE import_mappings (
  project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  entity_type  TEXT NOT NULL,
  source_id    TEXT NOT NULL,
  target_id    TEXT NOT NULL,
  PRIMARY KEY (project_id, entity_type, source_id)
) STRICT, WITHOUT ROWID;

