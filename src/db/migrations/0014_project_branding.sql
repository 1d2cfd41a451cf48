-- Branding set from the dashboard's settings: an accent colour and a logo, shown on the board pages, the
-- widget and emails. The logo's bytes live in their own table so that reading a project never loads them.
ALTER TABLE projects ADD COLUMN accent_color TEXT;
ALTER TABLE projects ADD COLUMN logo_updated_at INTEGER;

CREATE TABLE project_logos (
  project_id   TEXT PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  content_type TEXT NOT NULL,
  bytes        BLOB NOT NULL
) STRICT;
