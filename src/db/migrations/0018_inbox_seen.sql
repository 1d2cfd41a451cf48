-- When each member last opened the inbox of each project: the navigation's count of new board comments
-- counts only those written since (docs/dashboard.md), so it can reach zero.
ALTER TABLE team_memberships ADD COLUMN inbox_seen_at INTEGER NOT NULL DEFAULT 0;
