-- Double opt-in of an address the board already knows (docs/payments-and-email.md, "Confirming an email").
-- A keyless request (public vote or submission, widget, public MCP) whose email belongs to a board user is
-- not linked to that user (an email is no proof of identity), but it asks, for that person, to hear about
-- the request: one row here until a confirmation link mailed to the address is followed, which turns it
-- into a post_subscribers row. Rows older than 7 days are deleted as new ones are written and on confirming.
CREATE TABLE pending_subscriptions (
  board_user_id  TEXT NOT NULL REFERENCES board_users (id) ON DELETE CASCADE,
  post_id        TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  created_at     INTEGER NOT NULL,
  PRIMARY KEY (board_user_id, post_id)
) STRICT;
CREATE INDEX pending_subscriptions_created ON pending_subscriptions (created_at);
