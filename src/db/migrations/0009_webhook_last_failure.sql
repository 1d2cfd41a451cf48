-- When the endpoint's latest failed attempt finished: a failing run with a silence longer than the longest
-- retry wait is not "failing for 5 days straight", so the run restarts (docs/webhooks.md, auto-disable).
ALTER TABLE webhook_endpoints ADD COLUMN last_failure_at INTEGER;
