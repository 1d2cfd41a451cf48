-- Webhook endpoints, the four notification integrations, and the deliveries the worker fans each
-- outbox event out to, with every attempt kept for the endpoint's history.

CREATE TABLE webhook_endpoints (
  id             TEXT PRIMARY KEY,
  project_id     TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  url            TEXT NOT NULL,
  -- JSON array of event types, or ["*"].
  events         TEXT NOT NULL,
  description    TEXT,
  secret         TEXT NOT NULL,
  enabled        INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  -- Start of the current run of failed attempts; an endpoint failing for long enough is disabled.
  failing_since  INTEGER,
  disabled_reason TEXT,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_endpoints_project ON webhook_endpoints (project_id, created_at, id);

CREATE TABLE integrations (
  project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  kind        TEXT NOT NULL CHECK (kind IN ('team-chat', 'community-chat', 'code-host', 'issue-tracker')),
  -- The PUT body as JSON, secrets included (never returned in full).
  config      TEXT NOT NULL,
  enabled     INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (project_id, kind)
) STRICT, WITHOUT ROWID;

-- One row per event and target; its id is the `webhook-id`, kept across retries.
CREATE TABLE deliveries (
  id               TEXT PRIMARY KEY,
  project_id       TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  event_id         TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  event_type       TEXT NOT NULL,
  endpoint_id      TEXT REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  integration      TEXT CHECK (integration IN ('team-chat', 'community-chat', 'code-host', 'issue-tracker')),
  state            TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER NOT NULL,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  CHECK ((endpoint_id IS NULL) <> (integration IS NULL))
) STRICT;
CREATE UNIQUE INDEX deliveries_event_endpoint ON deliveries (event_id, endpoint_id) WHERE endpoint_id IS NOT NULL;
CREATE UNIQUE INDEX deliveries_event_integration ON deliveries (event_id, integration) WHERE integration IS NOT NULL;
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX deliveries_endpoint_recent ON deliveries (endpoint_id, created_at DESC) WHERE endpoint_id IS NOT NULL;

CREATE TABLE delivery_attempts (
  delivery_id  TEXT NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
  attempt      INTEGER NOT NULL,
  status_code  INTEGER,
  duration_ms  INTEGER NOT NULL,
  error        TEXT,
  started_at   INTEGER NOT NULL,
  finished_at  INTEGER NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
) STRICT, WITHOUT ROWID;

-- The issue opened for a post on the code host or the issue tracker: at most one per post and provider.
CREATE TABLE post_issue_links (
  post_id      TEXT NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  provider     TEXT NOT NULL CHECK (provider IN ('code-host', 'issue-tracker')),
  external_id  TEXT NOT NULL,
  url          TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (post_id, provider)
) STRICT, WITHOUT ROWID;
