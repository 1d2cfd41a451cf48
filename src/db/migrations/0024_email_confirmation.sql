-- Double opt-in (docs/payments-and-email.md, "Confirming an email"). An email typed on a keyless surface
-- (public API, board pages, widget, public MCP) that creates a board user is unconfirmed until its owner
-- follows the link mailed to it: until then it gets no subscriber mail. Every email stored before, and
-- every one the team sets (REST API, MCP with a key, dashboard, payments sync, imports), is confirmed: the
-- default.
ALTER TABLE board_users ADD COLUMN email_confirmed INTEGER NOT NULL DEFAULT 1 CHECK (email_confirmed IN (0, 1));

-- One row per confirmation mail. The token is a random 192-bit value stored as it is sent, as unsubscribe
-- tokens are (mail_outbox.unsubscribe_token): it only lets its holder confirm the address it was sent to.
-- It confirms `email` only while the board user still has that address.
CREATE TABLE email_confirmations (
  token          TEXT PRIMARY KEY,
  project_id     TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  board_user_id  TEXT NOT NULL REFERENCES board_users (id) ON DELETE CASCADE,
  email          TEXT NOT NULL,
  -- The request the address was typed with, named in the mail and on the page.
  post_id        TEXT REFERENCES posts (id) ON DELETE SET NULL,
  created_at     INTEGER NOT NULL,
  expires_at     INTEGER NOT NULL,
  confirmed_at   INTEGER
) STRICT;
CREATE INDEX email_confirmations_user ON email_confirmations (board_user_id, expires_at);

-- A confirmation mail leaves through the outbox like subscriber mail; this column marks it, and the sender
-- writes its link from it (and no unsubscribe link: it is the one mail the address gets unless confirmed).
ALTER TABLE mail_outbox ADD COLUMN confirm_token TEXT;
