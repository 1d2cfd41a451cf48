-- Payments sync (the processor's monthly recurring revenue becomes board-user spend) and the emails a
-- status change with notify: true sends to the post's subscribers.

-- One payment processor per project. The API key is kept as given: the sync must send it.
CREATE TABLE payment_integrations (
  project_id   TEXT PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  api_key      TEXT NOT NULL,
  enabled      INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  -- The last sync's response body (JSON), shown by GET.
  last_sync_at      INTEGER,
  last_sync_result  TEXT
) STRICT;

-- Board users whose spend the last sync set: a customer who stops paying drops back to 0 on the next
-- complete sync, and spend typed in by hand for anyone else is left alone.
CREATE TABLE payment_synced_users (
  project_id     TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  board_user_id  TEXT NOT NULL REFERENCES board_users (id) ON DELETE CASCADE,
  synced_at      INTEGER NOT NULL,
  PRIMARY KEY (project_id, board_user_id)
) STRICT, WITHOUT ROWID;

-- Every email, written in the transaction that causes it and sent after the commit. Without an SMTP
-- server the row itself is the delivery (the local outbox), marked with transport 'outbox'.
CREATE TABLE mail_outbox (
  id                 TEXT PRIMARY KEY,
  project_id         TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  notification_id    TEXT REFERENCES status_notifications (id) ON DELETE SET NULL,
  post_id            TEXT REFERENCES posts (id) ON DELETE SET NULL,
  board_user_id      TEXT REFERENCES board_users (id) ON DELETE SET NULL,
  to_address         TEXT NOT NULL,
  subject            TEXT NOT NULL,
  body_text          TEXT NOT NULL,
  unsubscribe_token  TEXT NOT NULL UNIQUE,
  created_at         INTEGER NOT NULL,
  attempts           INTEGER NOT NULL DEFAULT 0,
  next_attempt_at    INTEGER NOT NULL,
  sent_at            INTEGER,
  transport          TEXT CHECK (transport IN ('smtp', 'outbox')),
  failed_at          INTEGER,
  last_error         TEXT
) STRICT;
CREATE INDEX mail_outbox_pending ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;
CREATE INDEX mail_outbox_project ON mail_outbox (project_id, created_at);

-- Subscribers who followed the unsubscribe link of a post's email: they get no more mail about it.
CREATE TABLE mail_unsubscribes (
  post_id        TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  board_user_id  TEXT NOT NULL REFERENCES board_users (id) ON DELETE CASCADE,
  created_at     INTEGER NOT NULL,
  PRIMARY KEY (post_id, board_user_id)
) STRICT, WITHOUT ROWID;
