-- A key's optional name, given when it is created ("Zapier", "CI"), so the keys of a project can be told
-- apart in the dashboard and `featureboard keys list` (docs/dashboard.md).
ALTER TABLE api_keys ADD COLUMN name TEXT;
