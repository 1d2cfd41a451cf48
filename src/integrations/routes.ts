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

const CHAT_BEHAVIOUR =
  "Gets a message for each new post and new public comment, never for a status change made through PATCH.";
const TEXT = {
  "team-chat": { summary: "team chat (Slack-style incoming webhook)", behaviour: CHAT_BEHAVIOUR },
  "community-chat": { summary: "community chat (Discord-style webhook)", behaviour: CHAT_BEHAVIOUR },
  "code-host": {
    summary: "code host (GitHub REST)",
    behaviour:
      "With autoCreateIssues, opens one issue when a post becomes APPROVED; syncLabels sends the post's tags as labels.",
  },
  "issue-tracker": {
    summary: "issue tracker (Linear GraphQL)",
    behaviour: "With autoCreateIssues, opens one issue in teamId when a post becomes APPROVED.",
  },
} satisfies Record<IntegrationKind, { summary: string; behaviour: string }>;

/** The OpenAPI parts every kind shares, so the routes below differ only in their schemas and kind. */
function getDoc<View extends TSchema>(kind: IntegrationKind, view: View) {
  return {
    response: {
      200: dataOf(view, "The configuration; secrets show their last 4 characters"),
      ...errorResponses(404),
    },
    detail: { summary: `Get the ${TEXT[kind].summary} integration` },
  };
}
function putDoc<View extends TSchema>(kind: IntegrationKind, view: View) {
  return {
    response: { 200: dataOf(view, "Updated"), 201: dataOf(view, "Created"), ...errorResponses(400) },
    detail: {
      summary: `Create or replace the ${TEXT[kind].summary} integration`,
      description: `${TEXT[kind].behaviour} An omitted \`enabled\` means true. URLs must be https and must not resolve to private addresses.`,
    },
  };
}
function deleteDoc(kind: IntegrationKind) {
  return {
    response: { 200: SuccessSchema, ...errorResponses(404) },
    detail: { summary: `Remove the ${TEXT[kind].summary} integration` },
  };
}

/**
 * GET/PUT/DELETE for each of the four notification integrations (the payments one lives in src/payments),
 * spelt out per kind so every body and answer keeps its own type.
 */
export function integrationRoutes(ctx: AppContext) {
  const { db, config } = ctx;
  const removed = (projectId: string, kind: IntegrationKind) => {
    integrations.deleteIntegration(db, projectId, kind);
    return { success: true };
  };
  return secretKeyRoutes(ctx, "/api/v1/integrations", "Integrations")
    .get(
      "/team-chat",
      ({ project }) => ({ data: integrations.getIntegration(db, project.id, "team-chat") }),
      getDoc("team-chat", TeamChatView),
    )
    .put(
      "/team-chat",
      async ({ project, body, status }) => {
        const result = await integrations.putIntegration(db, project.id, "team-chat", body, config);
        return status(result.created ? 201 : 200, { data: result.integration });
      },
      { body: TeamChatPut, ...putDoc("team-chat", TeamChatView) },
    )
    .delete("/team-chat", ({ project }) => removed(project.id, "team-chat"), deleteDoc("team-chat"))
    .get(
      "/community-chat",
      ({ project }) => ({ data: integrations.getIntegration(db, project.id, "community-chat") }),
      getDoc("community-chat", CommunityChatView),
    )
    .put(
      "/community-chat",
      async ({ project, body, status }) => {
        const result = await integrations.putIntegration(db, project.id, "community-chat", body, config);
        return status(result.created ? 201 : 200, { data: result.integration });
      },
      { body: CommunityChatPut, ...putDoc("community-chat", CommunityChatView) },
    )
    .delete(
      "/community-chat",
      ({ project }) => removed(project.id, "community-chat"),
      deleteDoc("community-chat"),
    )
    .get(
      "/code-host",
      ({ project }) => ({ data: integrations.getIntegration(db, project.id, "code-host") }),
      getDoc("code-host", CodeHostView),
    )
    .put(
      "/code-host",
      async ({ project, body, status }) => {
        const result = await integrations.putIntegration(db, project.id, "code-host", body, config);
        return status(result.created ? 201 : 200, { data: result.integration });
      },
      { body: CodeHostPut, ...putDoc("code-host", CodeHostView) },
    )
    .delete("/code-host", ({ project }) => removed(project.id, "code-host"), deleteDoc("code-host"))
    .get(
      "/issue-tracker",
      ({ project }) => ({ data: integrations.getIntegration(db, project.id, "issue-tracker") }),
      getDoc("issue-tracker", IssueTrackerView),
    )
    .put(
      "/issue-tracker",
      async ({ project, body, status }) => {
        const result = await integrations.putIntegration(db, project.id, "issue-tracker", body, config);
        return status(result.created ? 201 : 200, { data: result.integration });
      },
      { body: IssueTrackerPut, ...putDoc("issue-tracker", IssueTrackerView) },
    )
    .delete(
      "/issue-tracker",
      ({ project }) => removed(project.id, "issue-tracker"),
      deleteDoc("issue-tracker"),
    );
}
