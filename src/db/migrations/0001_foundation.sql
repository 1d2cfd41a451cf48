-- Projects, their API keys, the activity log and the event outbox: what every capability builds on.

CREATE TABLE projects (
  id          TEXT PRIMARY KEY,
  slug        TEXT NOT NULL UNIQUE,
  name        TEXT NOT NULL,
  plan        TEXT NOT NULL CHECK (plan IN ('free', 'starter', 'growth', 'business')),
  is_public   INTEGER NOT NULL DEFAULT 1 CHECK (is_public IN (0, 1)),
  created_at  INTEGER NOT NULL
) STRICT;

-- Only a SHA-256 of each key is stored; the prefix (sk_/pk_ plus 8 characters) stays readable so a key
-- can be recognised in lists and revoked by it.
CREATE TABLE api_keys (
  id          TEXT PRIMARY KEY,
  project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  kind        TEXT NOT NULL CHECK (kind IN ('secret', 'publishable')),
  prefix      TEXT NOT NULL UNIQUE,
  key_hash    BLOB NOT NULL,
  created_at  INTEGER NOT NULL,
  revoked_at  INTEGER
) STRICT;
CREATE INDEX api_keys_project ON api_keys (project_id);

CREATE TABLE activity (
  id           TEXT PRIMARY KEY,
  project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  action       TEXT NOT NULL,
  entity_type  TEXT NOT NULL,
  entity_id    TEXT,
  metadata     TEXT,
  created_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX activity_project_recent ON activity (project_id, created_at DESC, id DESC);
CREATE INDEX activity_project_type_recent ON activity (project_id, entity_type, created_at DESC, id DESC);

-- Transactional outbox: an event row is written in the same transaction as the change it describes;
-- the delivery worker fans undispatched rows out in `seq` order.
CREATE TABLE events (
  seq            INTEGER PRIMARY KEY AUTOINCREMENT,
  id             TEXT NOT NULL UNIQUE,
  project_id     TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  type           TEXT NOT NULL,
  payload        TEXT NOT NULL,
  created_at     INTEGER NOT NULL,
  dispatched_at  INTEGER
) STRICT;
CREATE INDEX events_undispatched ON events (seq) WHERE dispatched_at IS NULL;
