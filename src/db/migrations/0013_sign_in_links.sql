-- One-time sign-in links for the dashboard, sent by email when SMTP is configured. Like invites and sessions,
-- only the SHA-256 of the token is stored.
CREATE TABLE team_sign_in_links (
  token_hash BLOB PRIMARY KEY,
  member_id  TEXT NOT NULL REFERENCES team_members (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
);
