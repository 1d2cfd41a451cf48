/** The featureboard://guide resource: how an agent should use this server. */
export const AGENT_GUIDE = `# featureboard for agents

featureboard is a feature-request board: posts (feature requests) collect votes and comments, the team
moves them through statuses (PENDING → APPROVED → IN_PROGRESS → COMPLETE, or CLOSED / ARCHIVED), publishes a
roadmap and a changelog, and prioritises by votes and customer revenue.

## Two modes

- **Public mode** (no key): four tools for anyone.
  - \`browse_board\`: what is already requested, planned or shipped, most voted first. Always look first.
  - \`upvote_post\`: the request exists: vote for it (calling it again removes the vote). Pass a stable \`anonymous_id\` of the person voting; without one the vote is this connection's, shared by everyone behind its address.
  - \`submit_feature_request\`: it does not exist: submit it (it is PENDING until the team approves it).
  - \`add_public_comment\`: add a use case or context to an existing post.
  Tools need \`project_slug\` unless the server URL carries \`?project=<slug>\` (the installed
  \`featureboard mcp\` sets it from FEATUREBOARD_PROJECT_SLUG).
- **Admin mode** (a secret \`sk_\` key): every tool, on the key's project. Private data (post metadata,
  internal notes, customer emails and spend) is visible here; do not copy it into public comments.

## Good habits

- Before creating a post, look for duplicates (\`browse_board\`, or \`search_similar\` in admin mode);
  vote or comment on the existing post instead, or merge duplicates with \`merge_posts\`.
- Titles are short and specific (at most 200 characters); put the why in the description.
- Change status with \`update_post\`; \`notify: true\` emails the post's subscribers.
- Errors come back as tool errors whose text is the API error: \`error_code\`, \`message\` and a
  \`resolution_hint\` that says how to fix the call; \`retry\` says whether trying again can help.

## Resources

- \`featureboard://project\`: the board: name, URL, post counts.
- \`featureboard://roadmap\`: approved, in-progress and complete posts by votes.
- \`featureboard://changelog\`: published releases, newest first.
- \`featureboard://posts/{post_id}\`: one post with its comments.
`;
