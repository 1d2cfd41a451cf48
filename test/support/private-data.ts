import { insertIssueLink } from "../../src/integrations/store";
import type { TestApp, TestResponse } from "./app";

/**
 * Private values planted in the test boards. Whatever a public surface (the public API, the MCP server in
 * public mode) answers is recorded and scanned for them, and for the fields that carry them.
 */
export const PRIVATE = {
  metadataValue: "metadata-sentinel-7f3a",
  internalNote: "internal-note-sentinel-91c2",
  email: "private.customer@example.com",
  spend: "4242.42",
  issueUrl: "https://issues.example/private-issue-5d1e",
} as const;

const PRIVATE_KEYS = new Set([
  "metadata",
  "isInternalNote",
  "email",
  "boardUserEmail",
  "userSpend",
  "spend",
  "spend_cents",
  "issueLinks",
]);
const EMAIL_PATTERN = /[\w.+-]+@[\w-]+\.[\w.-]+/;

function privateKeysIn(value: unknown, path: string, found: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => privateKeysIn(item, `${path}[${index}]`, found));
  } else if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (PRIVATE_KEYS.has(key)) found.push(`${path}.${key}`);
      privateKeysIn(inner, `${path}.${key}`, found);
    }
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Collects public responses and reports every trace of private data in them. */
export class PrivateDataScan {
  private readonly responses: { label: string; text: string }[] = [];

  record(label: string, text: string): void {
    this.responses.push({ label, text });
  }

  get count(): number {
    return this.responses.length;
  }

  /** One line per finding; empty when nothing private was seen. */
  findings(): string[] {
    const found: string[] = [];
    for (const { label, text } of this.responses) {
      for (const value of Object.values(PRIVATE)) {
        if (text.includes(value)) found.push(`${label}: contains "${value}"`);
      }
      const email = text.match(EMAIL_PATTERN);
      if (email) found.push(`${label}: contains an email address (${email[0]})`);
      const keys: string[] = [];
      privateKeysIn(parsed(text), "$", keys);
      // Tool results carry JSON inside their text content too.
      const content = (parsed(text) as { content?: { type: string; text?: string }[] } | null)?.content;
      for (const item of content ?? []) if (item.text) privateKeysIn(parsed(item.text), "$.content", keys);
      for (const key of keys) found.push(`${label}: carries ${key}`);
    }
    return found;
  }
}

/** `t.call` for public routes (no key unless given), recording every response in `scan`. */
export function publicCaller(t: TestApp, scan: PrivateDataScan) {
  return async (
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<TestResponse> => {
    const response = await t.call(method, path, { key: null, ...options });
    scan.record(`${method} ${path} → ${response.status}`, response.text);
    return response;
  };
}

/**
 * Plants private data in `t`'s test project: a board user with an email and spend who voted on and wrote
 * an approved post with metadata, and an internal note on it. Returns that post's id.
 */
export async function plantPrivateData(t: TestApp): Promise<string> {
  const user = await t.call("POST", "/api/v1/users", {
    body: { email: PRIVATE.email, name: "Private Customer", userSpend: Number(PRIVATE.spend) },
  });
  const post = await t.call("POST", "/api/v1/posts", {
    body: {
      title: "Planted post with private context",
      status: "APPROVED",
      metadata: { note: PRIVATE.metadataValue },
      createdByBoardUserId: user.body.data.id,
    },
  });
  const postId: string = post.body.data.id;
  // As the code-host integration would have stored it: the team's issue, not for end users.
  insertIssueLink(
    t.ctx.db,
    postId,
    { provider: "code-host", url: PRIVATE.issueUrl, externalId: "5d1e" },
    Date.now(),
  );
  await t.call("POST", `/api/v1/posts/${postId}/votes`, { body: { boardUserId: user.body.data.id } });
  await t.call("POST", `/api/v1/posts/${postId}/comments`, {
    body: { body: PRIVATE.internalNote, authorName: "Team", isInternalNote: true },
  });
  await t.call("POST", `/api/v1/posts/${postId}/comments`, {
    body: { body: "A public reply", authorName: "Team" },
  });
  return postId;
}

/** Property names a JSON Schema declares anywhere (nested objects, arrays, unions) that carry private data. */
export function privateFieldsInSchema(schema: unknown, path = "$"): string[] {
  if (Array.isArray(schema))
    return schema.flatMap((item, index) => privateFieldsInSchema(item, `${path}[${index}]`));
  if (typeof schema !== "object" || schema === null) return [];
  const found: string[] = [];
  const properties = (schema as { properties?: Record<string, unknown> }).properties;
  for (const name of Object.keys(properties ?? {})) {
    if (PRIVATE_KEYS.has(name)) found.push(`${path}.${name}`);
  }
  for (const [key, inner] of Object.entries(schema))
    found.push(...privateFieldsInSchema(inner, `${path}.${key}`));
  return found;
}
