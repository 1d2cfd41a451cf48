-- Random keys this installation keeps to itself (docs/mcp.md: the MCP server's default voter id is an HMAC
-- of the client address under one), made on first use and never shown.
CREATE TABLE instance_secrets (
  name TEXT PRIMARY KEY,
  value BLOB NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
