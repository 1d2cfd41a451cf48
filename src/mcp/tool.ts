import { type Static, type TObject, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { requireValid } from "../http/validation-message";
import type { AppContext } from "../context";
import { ApiError, validationError } from "../http/errors";
import type { Project } from "../projects/schema";
import { requirePublicBoard } from "../public/service";
import { toJsonSchema } from "./json-schema";

/** Who is calling, fixed for one MCP request (the hosted server is stateless: one session per request). */
export interface McpSession {
  ctx: AppContext;
  /** Admin mode: the project of the `sk_` key. Public mode: null. */
  adminProject: Project | null;
  /** Public mode: the board named by `/mcp?project=slug`, when given. */
  urlProjectSlug: string | null;
  /** What `upvote_post` votes as in admin mode when the caller gives no `anonymous_id` (public mode requires one). */
  defaultAnonymousId: string;
}

export type Access = "public" | "admin";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Reads the board; changes nothing. */
export const READS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Adds something; calling again adds it again. */
export const ADDS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
/** Sets fields to given values; calling again with the same arguments changes nothing more. */
export const UPDATES: ToolAnnotations = { ...ADDS, destructiveHint: true, idempotentHint: true };
/** Deletes or irreversibly merges. */
export const REMOVES: ToolAnnotations = { ...ADDS, destructiveHint: true, idempotentHint: false };

export interface ToolSpec<In extends TObject, Out extends TObject> {
  name: string;
  title: string;
  /** Says when to use the tool, not only what it does: it is what an agent chooses by. */
  description: string;
  access: Access;
  annotations: ToolAnnotations;
  input: In;
  output: Out;
  run(session: McpSession, args: Static<In>): Static<Out> | Promise<Static<Out>>;
}

/** A tool with its types erased, ready for the registry. */
export interface Tool {
  name: string;
  title: string;
  description: string;
  access: Access;
  annotations: ToolAnnotations;
  inputSchema: ReturnType<typeof toJsonSchema>;
  outputSchema: ReturnType<typeof toJsonSchema>;
  execute(session: McpSession, args: unknown): Promise<Record<string, unknown>>;
}

function checkArguments<S extends TSchema>(schema: S, args: unknown): Static<S> {
  return requireValid(schema, args ?? {}, "arguments");
}

export function defineTool<In extends TObject, Out extends TObject>(spec: ToolSpec<In, Out>): Tool {
  const argumentNames = restNamesOf(spec.input);
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    access: spec.access,
    annotations: spec.annotations,
    inputSchema: toJsonSchema(spec.input),
    outputSchema: toJsonSchema(spec.output),
    async execute(session, args) {
      if (spec.access === "admin") adminProject(session);
      let input: Static<In>;
      try {
        input = checkArguments(spec.input, args);
      } catch (error) {
        // Not renamed: these errors name the caller's own keys, a stray `postId` included.
        throw error instanceof ApiError ? inArgumentNames(error, NO_RENAMES) : error;
      }
      let result: Static<Out>;
      try {
        result = await spec.run(session, input);
      } catch (error) {
        throw error instanceof ApiError ? inArgumentNames(error, argumentNames) : error;
      }
      if (spec.access === "public") requireStrictOutput(spec.name, spec.output, result);
      return result as Record<string, unknown>;
    },
  };
}

/** A tool's snake_case argument names by the REST field name (camelCase) each mirrors: `tag_ids` by `tagIds`. */
function restNamesOf(input: TObject): Map<string, string> {
  const names = new Map<string, string>();
  for (const name of Object.keys(input.properties)) {
    const camel = name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
    if (camel !== name) names.set(camel, name);
  }
  return names;
}

const NO_RENAMES: ReadonlyMap<string, string> = new Map();

/** Where a validation error's hint sends a REST client (src/http/errors.ts), and where it sends an agent. */
const REST_FIELD_RULES = "the OpenAPI document lists every field's rules";
const TOOL_FIELD_RULES = "tools/list gives each tool's inputSchema";

/**
 * A service's words in a tool's terms: REST field names (`tagIds`, `intoPostId`) become the arguments'
 * (`tag_ids`, docs/mcp.md), "the request body" (`bodyError`) becomes the arguments: a tool has none, and
 * the rules are found in the tool's inputSchema rather than the OpenAPI document.
 */
export function inToolTerms(text: string, argumentNames: ReadonlyMap<string, string>): string {
  const renamed =
    argumentNames.size === 0
      ? text
      : text.replace(
          new RegExp(`\\b(${[...argumentNames.keys()].join("|")})\\b`, "g"),
          (camel) => argumentNames.get(camel) ?? camel,
        );
  return renamed
    .replace(/\bthe request body\b/g, "the arguments")
    .replace(/\brequest body\b/g, "arguments")
    .replace(REST_FIELD_RULES, TOOL_FIELD_RULES);
}

/** An error of a service, as a tool's caller reads it (`inToolTerms`). */
function inArgumentNames(error: ApiError, argumentNames: ReadonlyMap<string, string>): ApiError {
  const message = inToolTerms(error.message, argumentNames);
  const hint = inToolTerms(error.hint, argumentNames);
  if (message === error.message && hint === error.hint) return error;
  return new ApiError(error.code, message, hint, {
    retry: error.retry,
    availableActions: error.availableActions,
    headers: error.headers,
  });
}

/**
 * A public tool's result must match its output schema, whose objects all refuse unknown fields: a private
 * field that rode along fails the call closed (an internal error) instead of reaching an anonymous caller.
 */
export function requireStrictOutput(name: string, schema: TSchema, result: unknown): void {
  if (Value.Check(schema, result)) return;
  const first = Value.Errors(schema, result).First();
  throw new Error(`${name}: result does not match its public schema at '${first?.path ?? ""}'`);
}

/** The key's project; admin tools refuse public mode. */
export function adminProject(session: McpSession): Project {
  if (session.adminProject) return session.adminProject;
  throw new ApiError(
    "SECRET_KEY_REQUIRED",
    "Secret API key required: this tool works in admin mode only",
    "Connect to /mcp with 'Authorization: Bearer sk_…' (or set FEATUREBOARD_API_KEY for `featureboard mcp`); without a key only submit_feature_request, browse_board, upvote_post and add_public_comment are available.",
  );
}

/**
 * The board a public tool works on. Admin mode: the key's project (a `project_slug`, if given, must name
 * it). Public mode: `project_slug`, else the `?project=` of the MCP URL; the board must be public.
 */
export function boardProject(session: McpSession, projectSlug: string | undefined): Project {
  const own = session.adminProject;
  if (own) {
    if (projectSlug !== undefined && projectSlug !== own.slug) {
      throw validationError(
        "project_slug",
        `the API key belongs to project '${own.slug}'; omit project_slug`,
      );
    }
    return own;
  }
  // A connection to /mcp?project=<slug> is fixed to that board, as a key fixes admin mode's: an agent
  // told about one board must not act on another by naming it (docs/mcp.md).
  const fixed = session.urlProjectSlug;
  if (fixed !== null && projectSlug !== undefined && projectSlug !== fixed) {
    throw validationError(
      "project_slug",
      `this connection is to the board '${fixed}' (/mcp?project=${fixed}); omit project_slug`,
    );
  }
  const slug = projectSlug ?? fixed ?? undefined;
  if (slug === undefined) {
    throw validationError("project_slug", "is required in public mode (or connect to /mcp?project=<slug>)");
  }
  return requirePublicBoard(session.ctx.db, slug);
}
