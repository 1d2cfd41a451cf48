-- After a rotation the replaced signing secret keeps signing too, until previous_secret_expires_at, so a
-- receiver can switch to the new one without a delivery failing verification (docs/webhooks.md).
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret TEXT;
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_expires_at INTEGER;
