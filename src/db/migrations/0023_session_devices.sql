-- Where a member is signed in, and how they signed in (docs/dashboard.md, "Your account"). A session gets an
-- id that is not its token (the form that signs one out names it, and a page may show it), when it was last
-- used (written at most once a minute), and the client IP and User-Agent it signed in from. Sessions from
-- before have neither: the page says "unknown".
ALTER TABLE team_sessions ADD COLUMN id TEXT;
ALTER TABLE team_sessions ADD COLUMN last_used_at INTEGER;
ALTER TABLE team_sessions ADD COLUMN user_agent TEXT;
ALTER TABLE team_sessions ADD COLUMN ip TEXT;
UPDATE team_sessions SET id = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX team_sessions_id ON team_sessions (id);

-- Each sign-in (by password, email link or invite) and each wrong password for a member's email, with when,
-- from which IP and browser. Bounded: the newest 50 sign-ins and the newest 50 failed attempts of each
-- member are kept, each counted apart (team/service, SIGN_INS_KEPT).
CREATE TABLE team_sign_ins (
  id         INTEGER PRIMARY KEY,
  member_id  TEXT NOT NULL REFERENCES team_members (id) ON DELETE CASCADE,
  kind       TEXT NOT NULL CHECK (kind IN ('password', 'link', 'invite', 'failed')),
  at         INTEGER NOT NULL,
  ip         TEXT NOT NULL,
  user_agent TEXT NOT NULL
) STRICT;
CREATE INDEX team_sign_ins_member ON team_sign_ins (member_id, id);
