import { expect, test } from "bun:test";
import { activitySentence } from "../../src/admin/activity-lines";
import type { Chrome } from "../../src/admin/pages";

const chrome: Chrome = {
  memberName: "Priya",
  projectName: "Acme",
  projectSlug: "acme",
  role: "owner",
  csrfToken: "token",
  pendingCount: 0,
  newCommentCount: 0,
  projects: [{ slug: "acme", name: "Acme" }],
  section: "activity",
  notice: null,
};
const names = { posts: new Map<string, string>(), releases: new Map<string, string>() };

function disabled(reason: string): string {
  const entry = {
    id: "entry",
    action: "disabled",
    entityType: "webhook",
    entityId: "hook",
    metadata: { reason },
    createdAt: "2026-11-26T00:00:00.000Z",
  };
  return activitySentence(chrome, entry, names).toString();
}

test("the activity line of a webhook endpoint turned off says why: 410 Gone, or deliveries that kept failing", () => {
  expect(disabled("gone")).toContain("its receiver answered 410 Gone");
  expect(disabled("failing")).toContain("its deliveries kept failing");
});
