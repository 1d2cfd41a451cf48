CREATE TABLE tags (
  id          TEXT PRIMARY KEY,
  project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  label       TEXT NOT NULL,
  theme       TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;
-- A label names one tag per project, whatever its case ("Mobile" and "mobile" are the same tag).
CREATE UNIQUE INDEX tags_project_label ON tags (project_id, label COLLATE NOCASE);
