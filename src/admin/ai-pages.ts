import type { planSprint, summariseFeedback, triageInbox } from "../ai/service";
import { PERIODS, STRATEGIES, type Strategy } from "../ai/schema";
import { LIMITS } from "../http/limits";
import { html, type Html } from "../html";
import { plural } from "../plural";
import { type Chrome, formFields, href, layout, statusLabel } from "./pages";

export type TriageResult = Awaited<ReturnType<typeof triageInbox>>;
export type SummaryResult = Awaited<ReturnType<typeof summariseFeedback>>;
export type SprintPlan = Awaited<ReturnType<typeof planSprint>>;
type Period = (typeof PERIODS)[number];

/** What a helper answered, shown under its own form; nothing is stored (docs/dashboard.md, "AI"). */
export type AiAnswer =
  | {
      helper: "triage";
      result: TriageResult;
      /** The titles of the requests the recommendations call duplicates of, by id, for their links. */
      duplicateTitles: ReadonlyMap<string, string>;
    }
  | { helper: "summary"; result: SummaryResult }
  | { helper: "plan"; result: SprintPlan };

/** The values the forms show: the defaults, or what the member sent for the answer on the page. */
export interface AiInputs {
  triageLimit: number;
  period: Period;
  capacity: number;
  strategy: Strategy;
}

/**
 * The labels of the three forms' fields: the forms show them, and a refusal names the field by them
 * (labelledMessage in dashboard.ts), not by the API's name (`limit` for "Pending requests to triage, …").
 */
export const TRIAGE_LABELS = {
  limit: `Pending requests to triage, oldest first (at most ${LIMITS.triagePosts})`,
} as const;
export const SUMMARY_LABELS = { period: "Period" } as const;
export const PLAN_LABELS = {
  capacity: `Capacity: requests to plan (at most ${LIMITS.sprintCapacity})`,
  strategy: "Strategy",
} as const;

const PERIOD_LABELS: Record<Period, string> = {
  week: "the last 7 days",
  month: "the last 30 days",
  quarter: "the last 90 days",
};

const STRATEGY_LABELS: Record<Strategy, string> = {
  balanced: "Balanced (votes, revenue and size)",
  revenue: "Revenue (the voters' monthly spend first)",
  popular: "Popular (votes)",
  "quick-wins": "Quick wins (votes per effort)",
};

/** Said when the configured model could not write the words and the built-in logic wrote them (docs/ai.md). */
function writtenLocally(result: TriageResult | SummaryResult): Html | string {
  return "provider" in result && result.provider === "local"
    ? html`<p class="muted" data-written-locally>
        Written by featureboard's built-in logic: the configured AI model could not write it.
      </p>`
    : "";
}

function triageAnswer(chrome: Chrome, result: TriageResult, duplicateTitles: ReadonlyMap<string, string>) {
  if (result.recommendations.length === 0) {
    return html`<p role="status" id="triage-result">No pending requests to triage: the inbox is empty.</p>`;
  }
  const requestLink = (postId: string, title: string) =>
    html`<a href="${href(chrome, `/admin/posts/${postId}`)}">${title}</a>`;
  return html`<h3 id="triage-result">${plural(result.triaged, "recommendation")}, oldest request first</h3>
    ${writtenLocally(result)}
    <ol class="cards" aria-labelledby="triage-result">
      ${result.recommendations.map(
        (item) =>
          html`<li class="card" data-recommendation="${item.postId}">
            <h4>${requestLink(item.postId, item.title)}</h4>
            <p>
              Suggested status: <strong data-suggested-status>${statusLabel(item.suggested_status)}</strong> ·
              Priority: <strong data-priority>${item.priority}</strong> · Tags:
              <span data-suggested-tags
                >${item.suggested_tags.length === 0 ? "none suggested" : item.suggested_tags.join(", ")}</span
              >
            </p>
            ${
              item.duplicate_of
                ? html`<p data-duplicate-of>
                    Duplicate of
                    ${requestLink(item.duplicate_of, duplicateTitles.get(item.duplicate_of) ?? item.duplicate_of)}
                  </p>`
                : ""
            }
            <p class="user-text" data-reason>${item.reason}</p>
          </li>`,
      )}
    </ol>
    <p class="muted">Nothing was changed: open a request to approve, merge or tag it.</p>`;
}

function summaryAnswer(result: SummaryResult) {
  const { stats } = result;
  const stat = (label: string, value: number, key: string) =>
    html`<div class="card stat">
      <span class="muted">${label}</span><strong data-stat="${key}">${value}</strong>
    </div>`;
  return html`<h3 id="summary-result">Summary of ${PERIOD_LABELS[stats.period]}</h3>
    ${writtenLocally(result)}
    <p class="user-text" data-summary>${result.summary}</p>
    <div class="stats">
      ${stat("New requests", stats.new_posts, "new_posts")} ${stat("Votes", stats.total_votes, "total_votes")}
      ${stat("Comments", stats.new_comments, "new_comments")}
      ${stat("Status changes", stats.status_changes, "status_changes")}
      ${stat("Completed", stats.completed, "completed")}
    </div>
    <h4 id="summary-highlights">Highlights</h4>
    ${
      result.highlights.length === 0
        ? html`<p>None in this period.</p>`
        : html`<ul aria-labelledby="summary-highlights">
            ${result.highlights.map((line) => html`<li>${line}</li>`)}
          </ul>`
    }
    <h4 id="summary-themes">Top themes</h4>
    ${
      result.top_themes.length === 0
        ? html`<p>None stands out in this period.</p>`
        : html`<ul aria-labelledby="summary-themes">
            ${result.top_themes.map((theme) => html`<li>${theme}</li>`)}
          </ul>`
    }`;
}

function planAnswer(chrome: Chrome, plan: SprintPlan) {
  return html`<h3 id="plan-result">Sprint plan: ${STRATEGY_LABELS[plan.strategy]}</h3>
    <p data-plan-summary>${plan.summary}</p>
    ${
      plan.items.length === 0
        ? ""
        : html`<ol class="cards" aria-labelledby="plan-result">
              ${plan.items.map(
                (item) =>
                  html`<li class="card" data-planned="${item.postId}">
                    <h4>
                      <a href="${href(chrome, `/admin/posts/${item.postId}`)}">${item.title}</a>
                      <span class="muted">${plural(item.voteCount, "vote")}</span>
                    </h4>
                    <p class="user-text" data-reason>${item.reason}</p>
                  </li>`,
              )}
            </ol>
            <p class="muted">Nothing was changed: move the requests you choose on the roadmap.</p>`
    }`;
}

/**
 * The AI screen (admins and owners, docs/dashboard.md): triage, a period's summary and a sprint plan, each
 * a form whose answer shows under it. `unavailable`: why the helpers cannot run for this project (its plan),
 * said instead of the forms.
 */
export function aiPage(
  chrome: Chrome,
  view: {
    unavailable: { message: string; hint: string } | null;
    inputs: AiInputs;
    answer: AiAnswer | null;
  },
): Html {
  const { inputs, answer } = view;
  const intro = html`<h1>AI helpers</h1>
    <p class="muted">
      Each helper reads ${chrome.projectName}'s board and changes nothing; its answer is shown here and not
      kept. Every run draws on the project's AI budget, shared with the API and the MCP tools.
    </p>`;
  if (view.unavailable) {
    return layout(
      chrome,
      "AI helpers",
      html`${intro}
        <p class="notice" role="status" data-plan-needed>${view.unavailable.message}</p>
        <p>${view.unavailable.hint}</p>`,
    );
  }
  return layout(
    chrome,
    "AI helpers",
    html`${intro}
      <section aria-labelledby="triage-heading">
        <h2 id="triage-heading">Triage the inbox</h2>
        <form method="post" action="/admin/ai/triage">
          ${formFields(chrome)}
          <label for="triage-limit">${TRIAGE_LABELS.limit}</label
          ><input
            id="triage-limit"
            name="limit"
            type="number"
            min="1"
            max="${LIMITS.triagePosts}"
            required
            value="${inputs.triageLimit}"
          />
          <p><button class="primary" type="submit">Triage</button></p>
        </form>
        ${answer?.helper === "triage" ? triageAnswer(chrome, answer.result, answer.duplicateTitles) : ""}
      </section>
      <section aria-labelledby="summary-heading">
        <h2 id="summary-heading">Summary of a period</h2>
        <form method="post" action="/admin/ai/summary">
          ${formFields(chrome)}
          <label for="summary-period">${SUMMARY_LABELS.period}</label>
          <select id="summary-period" name="period">
            ${PERIODS.map(
              (period) =>
                html`<option value="${period}" ${period === inputs.period ? "selected" : ""}>
                  ${PERIOD_LABELS[period]}
                </option>`,
            )}
          </select>
          <p><button class="primary" type="submit">Summarise</button></p>
        </form>
        ${answer?.helper === "summary" ? summaryAnswer(answer.result) : ""}
      </section>
      <section aria-labelledby="plan-heading">
        <h2 id="plan-heading">Sprint plan</h2>
        <form method="post" action="/admin/ai/sprint-plan">
          ${formFields(chrome)}
          <label for="plan-capacity">${PLAN_LABELS.capacity}</label
          ><input
            id="plan-capacity"
            name="capacity"
            type="number"
            min="1"
            max="${LIMITS.sprintCapacity}"
            required
            value="${inputs.capacity}"
          />
          <label for="plan-strategy">${PLAN_LABELS.strategy}</label>
          <select id="plan-strategy" name="strategy">
            ${STRATEGIES.map(
              (strategy) =>
                html`<option value="${strategy}" ${strategy === inputs.strategy ? "selected" : ""}>
                  ${STRATEGY_LABELS[strategy]}
                </option>`,
            )}
          </select>
          <p><button class="primary" type="submit">Plan</button></p>
        </form>
        ${answer?.helper === "plan" ? planAnswer(chrome, answer.result) : ""}
      </section>`,
  );
}
