/** A command line that cannot be run as typed; main prints it with the usage and exits with code 2. */
export class UsageError extends Error {}

export const USAGE = `featureboard: self-hosted feature-request board

Usage:
  featureboard [serve]                       start the HTTP API (default command)
  featureboard project create --slug S [--name N] [--plan free|starter|growth|business] [--private] [--json]
  featureboard project list [--json]
  featureboard project set-plan SLUG PLAN
  featureboard keys create --project SLUG --kind secret|publishable [--name NAME] [--json]
  featureboard keys list --project SLUG [--json]
  featureboard keys revoke KEY|PREFIX
  featureboard keys rename PREFIX --project SLUG --name NAME
                                             name a key anew (--name "" takes its name away)
  featureboard team invite --email E [--role owner|admin|member] [--project SLUG] [--json]
                                             one-time URL (24 h) to set a password and open /admin
  featureboard team list [--project SLUG] [--json]
  featureboard team remove --email E [--project SLUG]
  featureboard team withdraw --email E [--project SLUG]
                                             end an invite not accepted yet (its link stops working)
  featureboard team reset-password --email E
                                             a new password for a member who lost theirs (shown once)
  featureboard mcp                           MCP server over stdio for agents; calls FEATUREBOARD_URL
                                             (admin with FEATUREBOARD_API_KEY, public with FEATUREBOARD_PROJECT_SLUG)
  featureboard ai status [--json]            which model the stored embeddings belong to, and what waits
  featureboard ai reindex [--all]            embed waiting posts now (--all: every post) after a provider change
  featureboard ai calibrate [--project SLUG] [--json]
                                             suggest FEATUREBOARD_EMBED_BOUNDARY from the duplicates the team merged
  featureboard backup PATH                   consistent copy of the database while it is in use
  featureboard --version

Configuration comes from environment variables (and a .env file); see README.md.`;
