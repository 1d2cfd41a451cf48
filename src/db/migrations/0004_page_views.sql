-- Board page views, counted per project per UTC day: analytics needs totals over days, never single views,
-- and a counter row per day keeps the table small however busy the board is.
CREATE TABLE page_views (
  project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  day TEXT NOT NULL, -- YYYY-MM-DD (UTC)
  views INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, day)
) WITHOUT ROWID;
