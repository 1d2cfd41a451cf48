import type { McpSession, Tool } from "../tool";
import { BOARD_TOOLS } from "./board";
import { POST_TOOLS } from "./posts";
import { PUBLIC_TOOLS } from "./public";

/** Every tool, built once at start-up; both transports serve this list. */
export const TOOLS: Tool[] = [...PUBLIC_TOOLS, ...POST_TOOLS, ...BOARD_TOOLS];

const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));

export function findTool(name: string): Tool | undefined {
  return byName.get(name);
}

/** Public mode lists the four public tools; admin mode lists everything. */
export function toolsFor(session: McpSession): Tool[] {
  return session.adminProject ? TOOLS : TOOLS.filter((tool) => tool.access === "public");
}
