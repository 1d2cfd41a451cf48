-- Official replies: a comment written by a team member from the dashboard carries the member, so the
-- public board can show it with the member's name and a "Team" badge.
ALTER TABLE comments ADD COLUMN team_member_id TEXT REFERENCES team_members (id) ON DELETE SET NULL;
