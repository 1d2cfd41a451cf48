-- The embedding worker takes the oldest posts still due, a few at a time (src/ai/store.ts queuedPosts):
-- without these it sorted the whole queue for every batch, ~3 ms per batch with 3,000 posts queued and
-- growing with the queue, all of it on the event loop (issue 19).
CREATE INDEX embedding_queue_due ON embedding_queue (queued_at, post_id) WHERE failed_at IS NULL;
CREATE INDEX embedding_queue_project_due ON embedding_queue (project_id, queued_at, post_id)
  WHERE failed_at IS NULL;
