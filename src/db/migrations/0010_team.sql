-- Team accounts for the dashboard (/admin): people who run a board, distinct from the board users who vote.
-- Passwords are argon2id hashes (Bun.password); invite and session tokens are stored as SHA-256 hashes only.
CREATE TABLE team_members (
  id            TEXT PRIMARY KEY,
  email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name          TEXT,
  password_hash TEXT,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);

CREATE TABLE team_memberships (
  member_id  TEXT NOT NULL REFERENCES team_members (id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  role       TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (member_id, project_id)
);
CREATE INDEX team_memberships_project ON team_memberships (project_id);

CREATE TABLE team_invites (
  token_hash BLOB PRIMARY KEY,
  email      TEXT NOT NULL COLLATE NOCASE,
  project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  role       TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
);

CREATE TABLE team_sessions (
  token_hash BLOB PRIMARY KEY,
  member_id  TEXT NOT NULL REFERENCES team_members (id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX team_sessions_member ON team_sessions (member_id);
