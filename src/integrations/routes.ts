import type { TSchema } from "elysia";
import type { AppContext } from "../context";
import { secretKeyRoutes } from "../http/routes";
import { dataOf, errorResponses, SuccessSchema } from "../http/schemas";
import {
  CodeHostPut,
  CodeHostView,
  CommunityChatPut,
  CommunityChatView,
  type IntegrationKind,
  IssueTrackerPut,
  IssueTrackerView,
  TeamChatPut,
  TeamChatView,
} from "./schema";
import * as integrations from "./service";

const KINDS: Record<IntegrationKind, { put: TSchema; view: TSchema; summary: string; behaviour: string }> = {
  "team-chat": {
    put: TeamChatPut,
    view: TeamChatView,
    summary: "team chat (Slack-style incoming webhook)",
    behaviour:
      "Gets a message for each new post and new public comment, never for a status change made through PATCH.",
  },
  "community-chat": {
    put: CommunityChatPut,
    view: CommunityChatView,
    summary: "community chat (Discord-style webhook)",
    behaviour:
      "Gets a message for each new post and new public comment, never for a status change made through PATCH.",
  },
  "code-host": {
    put: CodeHostPut,
    view: CodeHostView,
    summary: "code host (GitHub REST)",
    behaviour:
      "With autoCreateIssues, opens one issue when a post becomes APPROVED; syncLabels sends the post's tags as labels.",
  },
  "issue-tracker": {
    put: IssueTrackerPut,
    view: IssueTrackerView,
    summary: "issue tracker (Linear GraphQL)",
    behaviour: "With autoCreateIssues, opens one issue in teamId when a post becomes APPROVED.",
  },
};

/** GET/PUT/DELETE for each of the four notification integrations (the payments one lives elsewhere). */
export function integrationRoutes(ctx: AppContext) {
  const { db, config } = ctx;
  let routes = secretKeyRoutes(ctx, "/api/v1/integrations", "Integrations");
  for (const [kind, { put, view, summary, behaviour }] of Object.entries(KINDS) as [
    IntegrationKind,
    (typeof KINDS)[IntegrationKind],
  ][]) {
    routes = routes
      .get(`/${kind}`, ({ project }) => ({ data: integrations.getIntegration(db, project.id, kind) }), {
        response: {
          200: dataOf(view, "The configuration; secrets show their last 4 characters"),
          ...errorResponses(404),
        },
        detail: { summary: `Get the ${summary} integration` },
      })
      .put(
        `/${kind}`,
        async ({ project, body, status }) => {
          const result = await integrations.putIntegration(db, project.id, kind, body as never, config);
          return status(result.created ? 201 : 200, { data: result.integration });
        },
        {
          body: put,
          response: {
            200: dataOf(view, "Updated"),
            201: dataOf(view, "Created"),
            ...errorResponses(400),
          },
          detail: {
            summary: `Create or replace the ${summary} integration`,
            description: `${behaviour} An omitted \`enabled\` means true. URLs must be https and must not resolve to private addresses.`,
          },
        },
      )
      .delete(
        `/${kind}`,
        ({ project }) => {
          integrations.deleteIntegration(db, project.id, kind);
          return { success: true };
        },
        {
          response: { 200: SuccessSchema, ...errorResponses(404) },
          detail: { summary: `Remove the ${summary} integration` },
        },
      ) as unknown as typeof routes;
  }
  return routes;
}
