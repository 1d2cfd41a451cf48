import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { ProtocolError } from "./protocol-error";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { describeProblem } from "../http/validation-message";
import type { Access, McpSession } from "./tool";
import { SprintCapacity, SprintStrategy, TriageLimit } from "./tools/ai";

export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
  /**
   * What the value must be, when the prompt hands it to a tool: that tool's own argument schema. Prompt
   * arguments arrive as strings, so "5" is taken for 5 (docs/mcp.md).
   */
  schema?: TSchema;
}

export interface Prompt {
  name: string;
  title: string;
  description: string;
  access: Access;
  arguments: PromptArgument[];
  /** The user message the prompt expands to. */
  text(args: Record<string, string>, session: McpSession): string;
}

function boardHint(session: McpSession): string {
  if (session.adminProject) return ` on the board '${session.adminProject.slug}'`;
  if (session.urlProjectSlug) return ` on the board '${session.urlProjectSlug}'`;
  return "";
}

export const PROMPTS: Prompt[] = [
  {
    name: "submit_public_feedback",
    title: "Turn an idea into feedback on the board",
    description:
      "Files a user's idea without duplicates: browse, then vote or comment on a match, or submit a new request.",
    access: "public",
    arguments: [
      { name: "idea", description: "The idea or problem, in the user's words", required: true },
      { name: "project_slug", description: "The board, unless the server URL names it", required: false },
    ],
    text: (args, session) =>
      [
        `A user has this feedback${boardHint(session)}:`,
        "",
        args.idea ?? "",
        "",
        "1. Call browse_board" +
          (args.project_slug ? ` with project_slug "${args.project_slug}"` : "") +
          " with a few key words of the idea as `q` (then without `q` if nothing matches).",
        "2. If a post already asks for the same thing, call upvote_post on it, and add_public_comment with the user's specific use case if it adds something.",
        "3. Otherwise call submit_feature_request with a short, specific title (at most 200 characters) and a description of what the user wants and why.",
        "4. Tell the user what you did and give them the board URL.",
      ].join("\n"),
  },
  {
    name: "weekly_triage",
    title: "Weekly triage of new requests",
    description:
      "Works through the PENDING inbox: approve, tag, merge duplicates or close, with a note on each decision.",
    access: "admin",
    arguments: [
      {
        name: "limit",
        description: "How many pending posts to look at (default 20)",
        required: false,
        schema: TriageLimit,
      },
    ],
    text: (args, session) =>
      [
        `Triage the inbox of new feature requests${boardHint(session)}.`,
        "",
        `1. Call triage_inbox with limit ${args.limit ?? "20"} for recommendations (or list_posts with status PENDING).`,
        "2. For each post: if it duplicates another (duplicate_of, or search_similar), merge_posts it into the original;",
        "   if it is spam, delete_post it; if it is out of scope, update_post it to CLOSED; otherwise update_post it to",
        "   APPROVED with fitting tag_ids (list_tags, create_tag when a label is missing).",
        "3. Apply many decisions at once with bulk_update_posts; leave an internal note (add_comment, is_internal_note true) for non-obvious ones.",
        "4. Finish with a short report: how many approved, merged, closed, and the most requested themes.",
      ].join("\n"),
  },
  {
    name: "plan_sprint",
    title: "Plan the next sprint",
    description: "Picks the posts to build next by votes, revenue or effort, and explains the choice.",
    access: "admin",
    arguments: [
      {
        name: "capacity",
        description: "How many posts fit in the sprint (default 5)",
        required: false,
        schema: SprintCapacity,
      },
      {
        name: "strategy",
        description: "balanced (default), revenue, popular or quick-wins",
        required: false,
        schema: SprintStrategy,
      },
    ],
    text: (args, session) =>
      [
        `Plan the next sprint${boardHint(session)} with capacity ${args.capacity ?? "5"} and strategy ${args.strategy ?? "balanced"}.`,
        "",
        "1. Call plan_sprint with these values for a proposal.",
        "2. Check each proposed post with get_post and get_voters (who asks for it, and their spend).",
        "3. Present the plan as a table: post, votes, why now. Ask before moving anything.",
        "4. Once confirmed, update_post the chosen posts to IN_PROGRESS (notify true to tell their voters).",
      ].join("\n"),
  },
  {
    name: "publish_changelog",
    title: "Publish a changelog entry",
    description: "Writes release notes for what shipped and publishes them, marking the shipped posts.",
    access: "admin",
    arguments: [
      { name: "title", description: "The release title or version, such as 'v2.3'", required: false },
    ],
    text: (args, session) =>
      [
        `Publish a changelog entry${boardHint(session)}${args.title ? ` titled "${args.title}"` : ""}.`,
        "",
        "1. Call list_posts with status COMPLETE and sort date to see what shipped since the last release (list_releases).",
        "2. Write short, user-facing markdown notes: one line per shipped post, grouped by theme, no internal details.",
        "3. Show the draft; once approved, call create_release with is_draft false to publish it.",
        "4. Then update_post each shipped post to ARCHIVED (notify true), so the roadmap shows what is next.",
      ].join("\n"),
  },
];

export function promptsFor(session: McpSession): Prompt[] {
  return PROMPTS.filter((prompt) => prompt.access === "public" || session.adminProject !== null);
}

/** A prompt argument as a tool takes it: "5" is 5 and "2.5" is 2.5 (not 2); any other text stays text. */
function asToolValue(text: string): unknown {
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

function invalidArgument(argument: string, problem: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, `Invalid params: 'arguments.${argument}' ${problem}`);
}

/**
 * A prompt's arguments as its tools would take them: required ones present, none it does not have, and each
 * with a schema valid by it, so "capacity abc" is refused rather than written into the instructions.
 */
function checkPromptArguments(prompt: Prompt, args: Record<string, string>): void {
  const known = new Set(prompt.arguments.map((argument) => argument.name));
  const stray = Object.keys(args).find((name) => !known.has(name));
  if (stray !== undefined) throw invalidArgument(stray, `is not an argument of the prompt ${prompt.name}`);
  for (const argument of prompt.arguments) {
    const value = args[argument.name];
    if (argument.required && !value) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Prompt ${prompt.name} needs the argument '${argument.name}'`,
      );
    }
    if (value === undefined || argument.schema === undefined) continue;
    const first = Value.Errors(argument.schema, asToolValue(value)).First();
    if (first) throw invalidArgument(argument.name, describeProblem(first));
  }
}

export function getPrompt(session: McpSession, name: string, args: Record<string, string>) {
  const prompt = promptsFor(session).find((candidate) => candidate.name === name);
  if (!prompt) {
    const adminOnly = PROMPTS.some((candidate) => candidate.name === name);
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      adminOnly ? `Prompt ${name} needs admin mode (a secret sk_ key)` : `Unknown prompt: ${name}`,
    );
  }
  checkPromptArguments(prompt, args);
  return {
    description: prompt.description,
    messages: [
      { role: "user" as const, content: { type: "text" as const, text: prompt.text(args, session) } },
    ],
  };
}
