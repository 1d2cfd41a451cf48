-- The dashboard's request page shows the activity of one request: its own entries (entity_id) and those of
-- its votes and comments (metadata.postId). One expression index answers both without scanning the log.
CREATE INDEX activity_of_post ON activity (
  project_id,
  coalesce(json_extract(metadata, '$.postId'), entity_id),
  created_at DESC
);
