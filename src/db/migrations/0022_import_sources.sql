-- The id a CSV row gave a request in the tool it came from (Canny, Featurebase, a spreadsheet): importing
-- the same file again finds the row here and creates nothing twice (docs/export-format.md). The primary key
-- is what keeps two imports of one file at once from both creating it. Deleting the post forgets its id,
-- so a later import brings it back.
CREATE TABLE import_sources (
  project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  source      TEXT NOT NULL,
  source_id   TEXT NOT NULL,
  post_id     TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  PRIMARY KEY (project_id, source, source_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX import_sources_post ON import_sources (post_id);
