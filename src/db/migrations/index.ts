// Every migration, in order. Imported as text so the compiled binary carries them; a test checks that
// each .sql file in this folder is listed here. A landed migration is never edited: add the next number.
import foundation from "./0001_foundation.sql" with { type: "text" };
import tags from "./0002_tags.sql" with { type: "text" };
import board from "./0003_board.sql" with { type: "text" };
import pageViews from "./0004_page_views.sql" with { type: "text" };
import releases from "./0005_releases.sql" with { type: "text" };
import ai from "./0006_ai.sql" with { type: "text" };
import webhooksIntegrations from "./0007_webhooks_integrations.sql" with { type: "text" };
import paymentsEmail from "./0008_payments_email.sql" with { type: "text" };
import webhookLastFailure from "./0009_webhook_last_failure.sql" with { type: "text" };
import team from "./0010_team.sql" with { type: "text" };
import teamReplies from "./0011_team_replies.sql" with { type: "text" };
import activityOfPost from "./0012_activity_of_post.sql" with { type: "text" };
import signInLinks from "./0013_sign_in_links.sql" with { type: "text" };
import projectBranding from "./0014_project_branding.sql" with { type: "text" };
import embeddingFailures from "./0015_embedding_failures.sql" with { type: "text" };
import embeddingQueueDue from "./0016_embedding_queue_due.sql" with { type: "text" };
import halfVectors from "./0017_half_vectors.sql" with { type: "text" };
import inboxSeen from "./0018_inbox_seen.sql" with { type: "text" };
import instanceSecrets from "./0019_instance_secrets.sql" with { type: "text" };
import webhookPreviousSecret from "./0020_webhook_previous_secret.sql" with { type: "text" };
import apiKeyNames from "./0021_api_key_names.sql" with { type: "text" };
import importSources from "./0022_import_sources.sql" with { type: "text" };
import sessionDevices from "./0023_session_devices.sql" with { type: "text" };
import emailConfirmation from "./0024_email_confirmation.sql" with { type: "text" };
import pendingSubscriptions from "./0025_pending_subscriptions.sql" with { type: "text" };

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  { version: 1, name: "0001_foundation", sql: foundation },
  { version: 2, name: "0002_tags", sql: tags },
  { version: 3, name: "0003_board", sql: board },
  { version: 4, name: "0004_page_views", sql: pageViews },
  { version: 5, name: "0005_releases", sql: releases },
  { version: 6, name: "0006_ai", sql: ai },
  { version: 7, name: "0007_webhooks_integrations", sql: webhooksIntegrations },
  { version: 8, name: "0008_payments_email", sql: paymentsEmail },
  { version: 9, name: "0009_webhook_last_failure", sql: webhookLastFailure },
  { version: 10, name: "0010_team", sql: team },
  { version: 11, name: "0011_team_replies", sql: teamReplies },
  { version: 12, name: "0012_activity_of_post", sql: activityOfPost },
  { version: 13, name: "0013_sign_in_links", sql: signInLinks },
  { version: 14, name: "0014_project_branding", sql: projectBranding },
  { version: 15, name: "0015_embedding_failures", sql: embeddingFailures },
  { version: 16, name: "0016_embedding_queue_due", sql: embeddingQueueDue },
  { version: 17, name: "0017_half_vectors", sql: halfVectors },
  { version: 18, name: "0018_inbox_seen", sql: inboxSeen },
  { version: 19, name: "0019_instance_secrets", sql: instanceSecrets },
  { version: 20, name: "0020_webhook_previous_secret", sql: webhookPreviousSecret },
  { version: 21, name: "0021_api_key_names", sql: apiKeyNames },
  { version: 22, name: "0022_import_sources", sql: importSources },
  { version: 23, name: "0023_session_devices", sql: sessionDevices },
  { version: 24, name: "0024_email_confirmation", sql: emailConfirmation },
  { version: 25, name: "0025_pending_subscriptions", sql: pendingSubscriptions },
];
