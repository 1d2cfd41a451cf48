-- Semantic similarity (decisions §7). A post's embedding is stored twice: its full vector here (re-ranking
-- reads a few hundred by key, which vec0 does slowly) and its 1024-bit signature in the vec0 table below,
-- which the KNN scan searches. The signature has a fixed size whatever the provider's dimension, so the
-- vec0 table can be created here; changing provider rebuilds the rows, not the table.

-- Which vector space the stored embeddings belong to (the provider and model that made them).
CREATE TABLE ai_index_state (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  model_key   TEXT NOT NULL,
  updated_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE post_embeddings (
  -- The vec0 rowid of the signature: a stable integer (a rowid of posts could change on VACUUM), never
  -- reused, so a signature can never be taken for a later post's.
  vector_id    INTEGER PRIMARY KEY AUTOINCREMENT,
  post_id      TEXT NOT NULL UNIQUE REFERENCES posts (id) ON DELETE CASCADE,
  project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  model_key    TEXT NOT NULL,
  -- Hash of the embedded text: an unchanged post is not embedded again.
  text_hash    TEXT NOT NULL,
  vector       BLOB NOT NULL,
  embedded_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX post_embeddings_project ON post_embeddings (project_id);

-- Posts waiting for an embedding: written in the post's transaction when the provider needs the network
-- (openai), and for every post when the provider or model changes. A worker drains it.
CREATE TABLE embedding_queue (
  post_id     TEXT PRIMARY KEY REFERENCES posts (id) ON DELETE CASCADE,
  project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  queued_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX embedding_queue_project ON embedding_queue (project_id, queued_at);

-- One partition per project; bit[] Hamming scans are ~4x faster than int8 and ~8x faster than float on the
-- npm build of sqlite-vec (no AVX), measured in docs/ai.md.
CREATE VIRTUAL TABLE post_signatures USING vec0 (
  project_id  TEXT PARTITION KEY,
  signature   BIT[1024]
);

-- A post removed by any path (its own deletion, a cascade from its project) takes its signature with it: the
-- vec0 table has no foreign keys.
CREATE TRIGGER post_embeddings_forget_signature AFTER DELETE ON post_embeddings
BEGIN
  DELETE FROM post_signatures WHERE rowid = old.vector_id;
END;
