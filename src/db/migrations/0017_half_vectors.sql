-- A stored vector as 16-bit floats (`f16`) instead of 32-bit (`f32`): a 512-dimension vector takes 1,024
-- bytes instead of 2,048, so three rows share a 4 KiB page where a 2.1 KB row left half of its page empty
-- (issue 19). New vectors are written as f16; the embedding worker rewrites the older f32 rows a few at a
-- time. Half precision moves a cosine by about 0.001, below what the similarity answers show.
ALTER TABLE post_embeddings ADD COLUMN vector_format TEXT NOT NULL DEFAULT 'f32'
  CHECK (vector_format IN ('f32', 'f16'));
CREATE INDEX post_embeddings_f32 ON post_embeddings (vector_id) WHERE vector_format = 'f32';
