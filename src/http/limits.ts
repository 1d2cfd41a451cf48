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
  personNameLength: 200,
  emailLength: 320,
  urlLength: 2_000,
  searchLength: 200,
  /** A project's display name (board header, emails). */
  projectNameLength: 100,
  /** The text the similar-post search compares posts with. */
  similarQueryLength: 10_000,
  /** Raw feedback for from-text (an email, a call note), and its origin label. */
  feedbackTextLength: 20_000,
  feedbackSourceLength: 100,
} as const;
