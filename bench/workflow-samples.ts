// Real outputs of the local AI workflows on realistic input, for docs/ai.md (issue 18): a small board of
// requests, three pasted pieces of feedback, then triage, summaries, sprint plans and similar searches.
//
//   npx bun bench/workflow-samples.ts

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { closeDatabase } from "../src/db/connection";
import { createLogger } from "../src/log";
import {
  createPostFromText,
  findSimilarPosts,
  planSprint,
  summariseFeedback,
  triageInbox,
} from "../src/ai/service";
import { castVote } from "../src/votes/service";
import { createPost } from "../src/posts/service";
import { createProject } from "../src/projects/service";
import { createContext } from "../src/server";
import { updateUser, upsertUserByEmail } from "../src/users/service";

const dir = mkdtempSync(join(tmpdir(), "featureboard-samples-"));
const ctx = createContext(
  loadConfig({ FEATUREBOARD_DB: join(dir, "samples.db"), FEATUREBOARD_LOG_LEVEL: "silent" }),
  createLogger("silent"),
);
const { project } = createProject(ctx.db, { slug: "acme", name: "Acme", plan: "growth" });
const id = project.id;

const board: [string, string, string, number, number][] = [
  ["Dark mode", "The white background is hard on the eyes at night.", "APPROVED", 14, 0],
  ["Export reports to CSV", "Finance wants the monthly report as a spreadsheet.", "APPROVED", 9, 2_400],
  ["SAML single sign-on", "We log in through Okta and need SAML for our 300 staff.", "IN_PROGRESS", 6, 4_900],
  ["Android app", "A native app for our field team's Android phones.", "APPROVED", 11, 0],
  ["Keyboard shortcut to create a task", "Press N to add a task without the mouse.", "APPROVED", 3, 0],
  ["Recurring tasks", "Weekly chores should come back every Monday.", "PENDING", 0, 0],
  ["iOS app", "Same as Android but for iPhone.", "PENDING", 0, 0],
  ["Night theme for the editor", "Coding late, the editor is far too bright.", "PENDING", 0, 0],
];
let voter = 0;
for (const [title, description, status, votes, spend] of board) {
  const post = createPost(ctx.db, id, { title, description, status: status as "APPROVED" });
  for (let index = 0; index < votes; index++) {
    const { user } = upsertUserByEmail(ctx.db, id, { email: `voter${voter++}@example.com` });
    if (index === 0 && spend > 0) updateUser(ctx.db, id, user.id, { userSpend: spend / 100 });
    castVote(ctx.db, id, post.id, { boardUserId: user.id });
  }
}

const feedback = [
  "Hi team,\n\nHope you're well! Our accountants need to export invoices to CSV at the end of every month. Could you add that?\n\nThanks,\nMaria",
  "Love the product. One thing: when I'm on the train there's no signal and I can't open my tasks. Offline access would be huge for us.",
  "From a call with BigCo (120 seats): they can't roll out without SSO through Azure AD. Blocker for the renewal in March.",
];
const show = (label: string, value: unknown) =>
  console.log(`### ${label}\n\n${JSON.stringify(value, null, 2)}\n`);
for (const text of feedback) {
  const result = await createPostFromText(ctx.ai, id, { text });
  show(`from-text: ${JSON.stringify(text.slice(0, 60))}…`, {
    action: result.action,
    title: result.post.title,
    similar: result.similar_posts.map((hit) => `${hit.title} (${hit.similarity})`),
  });
}
const triage = await triageInbox(ctx.ai, id, {});
show(
  "triage",
  triage.recommendations.map((item) => ({
    title: item.title,
    suggested_status: item.suggested_status,
    duplicate_of: item.duplicate_of ? "yes" : null,
    priority: item.priority,
    reason: item.reason,
  })),
);
for (const period of ["week", "month", "quarter"] as const) {
  const summary = await summariseFeedback(ctx.ai, id, { period });
  show(`summary (${period})`, {
    summary: summary.summary,
    highlights: summary.highlights,
    top_themes: summary.top_themes,
  });
}
for (const strategy of ["balanced", "revenue", "quick-wins"] as const) {
  const plan = await planSprint(ctx.ai, id, { strategy, capacity: 3 });
  show(`sprint plan (${strategy})`, {
    summary: plan.summary,
    items: plan.items.map((item) => `${item.title}: ${item.reason}`),
  });
}
for (const query of ["night theme", "spreadsheet download", "okta login"]) {
  const hits = await findSimilarPosts(ctx.ai, id, { query });
  show(
    `similar "${query}"`,
    hits.map((hit) => `${hit.title} (${hit.similarity})`),
  );
}
closeDatabase(ctx.db);
rmSync(dir, { recursive: true, force: true });
