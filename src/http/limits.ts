/**
 * Field and list limits, written once: the REST schemas, the public API's, the MCP tools' and the
 * services read them from here, so no surface can drift from another (docs/limits.md lists them).
 */
export const LIMITS = {
  /** Ids of every entity (UUIDv7 today; room for other sources). */
  idLength: 64,
  /** Project slugs: a-z, 0-9 and -, 2 to 48 characters. */
  slugMinLength: 2,
  slugMaxLength: 48,
  postTitleLength: 200,
  postDescriptionLength: 10_000,
  commentLength: 5_000,
  tagLabelLength: 50,
  tagsPerPost: 100,
  bulkItems: 100,
  releaseTitleLength: 200,
  releaseContentLength: 100_000,
  releaseLabelLength: 50,
  /** The posts one release ships. */
  releasePosts: 1_000,
  personNameLength: 200,
  emailLength: 320,
  urlLength: 2_000,
  searchLength: 200,
  /** A project's display name (board header, emails). */
  projectNameLength: 100,
  /** An API key's optional name, to tell a project's keys apart ("Zapier", "CI"). */
  apiKeyNameLength: 100,
  /** The text the similar-post search compares posts with, and the most posts it answers. */
  similarQueryLength: 10_000,
  similarPosts: 50,
  /**
   * What one AI workflow request may ask for: posts triaged, posts planned in a sprint. They bound the work
   * of one rate-limited request (docs/ai.md, "Endpoints").
   */
  triagePosts: 100,
  sprintCapacity: 50,
  /** Raw feedback for from-text (an email, a call note), and its origin label. */
  feedbackTextLength: 20_000,
  feedbackSourceLength: 100,
  /** The id a visitor without an account votes and comments under (spec: 1 to 200 characters). */
  anonymousIdLength: 200,
  /** An activity filter's entity type (post, tag, release…). */
  entityTypeLength: 50,
  /** An opaque paging cursor as the API hands it out. */
  cursorLength: 2_000,
  /** A webhook endpoint's description, its event type names, and how many it subscribes to. */
  webhookDescriptionLength: 500,
  eventTypeLength: 64,
  webhookEvents: 50,
  /** A secret or API key of a connected service (chat tool, code host, payment processor). */
  serviceSecretLength: 2_000,
  paymentsKeyLength: 500,
  /** A chat channel's or an issue tracker team's name, as the integration settings take them. */
  integrationLabelLength: 200,
  /** Where a request submitted through the MCP server came from (its private metadata.source). */
  requestSourceLength: 200,
  /** The token of an email link (unsubscribe, sign-in). */
  linkTokenLength: 100,
} as const;
