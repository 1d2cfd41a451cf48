-- A post the model server refuses to embed (too long even when cut) is kept aside with the reason instead
-- of blocking every post queued after it; `featureboard ai status` lists them, editing the post retries it.
ALTER TABLE embedding_queue ADD COLUMN failed_at INTEGER;
ALTER TABLE embedding_queue ADD COLUMN failure TEXT;
