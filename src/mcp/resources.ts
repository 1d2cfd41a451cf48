import type { TSchema } from "@sinclair/typebox";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { ProtocolError } from "./protocol-error";
import { listComments } from "../comments/service";
import { getPost } from "../posts/service";
import type { Project } from "../projects/schema";
import { getBoard, getPublicChangelog, getPublicPost, getPublicRoadmap } from "../public/service";
import { listPublishedReleases } from "../releases/service";
import { getRoadmap } from "../roadmap/service";
import {
  PublicBoardSchema,
  PublicChangelogSchema,
  PublicPostDetailSchema,
  PublicRoadmapSchema,
} from "../public/schema";
import { AGENT_GUIDE } from "./guide";
import { boardProject, type McpSession, requireStrictOutput } from "./tool";

export interface StaticResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** Whether reading it needs a project (public mode: `?project=` on the URL). */
  needsProject: boolean;
  read(session: McpSession): unknown;
}

export interface ResourceTemplate {
  uriTemplate: string;
  pattern: RegExp;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  read(session: McpSession, project: Project, match: RegExpMatchArray): unknown;
}

/** Public-mode resources pass the strict public schemas, like public tool results (see requireStrictOutput). */
function strict<T>(name: string, schema: TSchema, value: T): T {
  requireStrictOutput(name, schema, value);
  return value;
}

/** The project resources are about: the key's, or the board named by `?project=` in public mode. */
function resourceProject(session: McpSession): Project {
  if (!session.adminProject && session.urlProjectSlug === null) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      "In public mode, resources need a board: connect to /mcp?project=<slug> (FEATUREBOARD_PROJECT_SLUG for featureboard mcp)",
    );
  }
  return boardProject(session, undefined);
}

export const STATIC_RESOURCES: StaticResource[] = [
  {
    uri: "featureboard://guide",
    name: "guide",
    title: "Guide for agents",
    description: "How to use this server: modes, tools, good habits. Read it first.",
    mimeType: "text/markdown",
    needsProject: false,
    read: () => AGENT_GUIDE,
  },
  {
    uri: "featureboard://project",
    name: "project",
    title: "The board",
    description:
      "The project's board: slug, name, board URL and post counts (plus plan and visibility in admin mode).",
    mimeType: "application/json",
    needsProject: true,
    read(session) {
      const project = resourceProject(session);
      const board = getBoard(session.ctx.db, project, session.ctx.config.publicUrl);
      if (!session.adminProject) return strict("featureboard://project", PublicBoardSchema, board);
      return { ...board, projectId: project.id, plan: project.plan, isPublic: project.isPublic };
    },
  },
  {
    uri: "featureboard://roadmap",
    name: "roadmap",
    title: "Roadmap",
    description: "Approved, in-progress and complete posts, each column by votes.",
    mimeType: "application/json",
    needsProject: true,
    read(session) {
      const project = resourceProject(session);
      return session.adminProject
        ? getRoadmap(session.ctx.db, project.id)
        : strict("featureboard://roadmap", PublicRoadmapSchema, getPublicRoadmap(session.ctx.db, project.id));
    },
  },
  {
    uri: "featureboard://changelog",
    name: "changelog",
    title: "Changelog",
    description:
      "The 20 latest published releases, newest first (list_releases pages further in admin mode).",
    mimeType: "application/json",
    needsProject: true,
    read(session) {
      const project = resourceProject(session);
      const query = { page: 1, limit: 20 };
      return session.adminProject
        ? listPublishedReleases(session.ctx.db, project.id, query)
        : strict(
            "featureboard://changelog",
            PublicChangelogSchema,
            getPublicChangelog(session.ctx.db, project.id, query),
          );
    },
  },
];

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: "featureboard://posts/{post_id}",
    pattern: /^featureboard:\/\/posts\/([^/?#]{1,64})$/,
    name: "post",
    title: "A post with its comments",
    description:
      "One post with its comments. Public mode: the public view (no PENDING posts, no internal notes). Admin mode: the full post with tags, metadata and every comment.",
    mimeType: "application/json",
    read(session, project, match) {
      const postId = decodeURIComponent(match[1]!);
      if (!session.adminProject)
        return strict(
          "featureboard://posts",
          PublicPostDetailSchema,
          getPublicPost(session.ctx.db, project.id, postId),
        );
      return {
        ...getPost(session.ctx.db, project.id, postId),
        comments: listComments(session.ctx.db, project.id, postId, "all"),
      };
    },
  },
];

/** The resources a session can read: without a board, public mode offers the guide only. */
export function listedResources(session: McpSession): StaticResource[] {
  const hasProject = session.adminProject !== null || session.urlProjectSlug !== null;
  return STATIC_RESOURCES.filter((resource) => hasProject || !resource.needsProject);
}

export function listedTemplates(session: McpSession): ResourceTemplate[] {
  return session.adminProject !== null || session.urlProjectSlug !== null ? RESOURCE_TEMPLATES : [];
}

export function readResource(session: McpSession, uri: string) {
  const found = STATIC_RESOURCES.find((resource) => resource.uri === uri);
  if (found) {
    const value = found.read(session);
    return {
      uri,
      mimeType: found.mimeType,
      text: typeof value === "string" ? value : JSON.stringify(value, null, 2),
    };
  }
  for (const template of RESOURCE_TEMPLATES) {
    const match = uri.match(template.pattern);
    if (match) {
      const value = template.read(session, resourceProject(session), match);
      return { uri, mimeType: template.mimeType, text: JSON.stringify(value, null, 2) };
    }
  }
  throw new ProtocolError(ErrorCode.InvalidParams, `Unknown resource: ${uri}`, { uri });
}
