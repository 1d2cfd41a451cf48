import { Elysia } from "elysia";
import {
  PERIODS,
  SprintPlanRequestSchema,
  STRATEGIES,
  SummaryRequestSchema,
  TriageSchema,
} from "../ai/schema";
import {
  DEFAULT_CAPACITY,
  DEFAULT_TRIAGE_LIMIT,
  planSprint,
  requireAiPlan,
  summariseFeedback,
  triageInbox,
} from "../ai/service";
import { ApiError } from "../http/errors";
import { enforceRateLimit } from "../http/rate-limit";
import { requireValid } from "../http/validation-message";
import { getPost } from "../posts/service";
import { requireRole } from "../team/service";
import { type AiAnswer, type AiInputs, aiPage, PLAN_LABELS, SUMMARY_LABELS, TRIAGE_LABELS } from "./ai-pages";
import { type DashboardKit, DashboardRefusal } from "./dashboard";
import { href } from "./pages";
import type { Caller } from "./session";

const DEFAULT_INPUTS: AiInputs = {
  triageLimit: DEFAULT_TRIAGE_LIMIT,
  period: PERIODS[0],
  capacity: DEFAULT_CAPACITY,
  strategy: STRATEGIES[0],
};

/** A number field of a form as the service's schema checks it: empty is left out (the default). */
function wholeNumberOf(form: URLSearchParams, name: string): number | undefined {
  const text = (form.get(name) ?? "").trim();
  return text === "" ? undefined : Number(text);
}

/**
 * A refusal of the AI provider or of the project's AI budget in the member's words, with the status the API
 * answers and its Retry-After, and a link that opens the AI screen again (docs/dashboard.md, "AI").
 * Anything else (a form value out of bounds, the plan) goes on as it is.
 */
function inMemberWords(error: unknown, caller: Caller, aiPath: string): unknown {
  if (!(error instanceof ApiError)) return error;
  const project = caller.membership.projectName;
  const options = { retry: error.retry, headers: error.headers };
  switch (error.code) {
    case "RATE_LIMITED":
      return new DashboardRefusal(
        error.code,
        `${project} has used its AI budget for the moment: nothing was worked out`,
        `Try again in ${error.headers["retry-after"] ?? "a few"} second(s). The budget is the project's, ` +
          "shared with the API and the MCP tools.",
        aiPath,
        options,
      );
    case "UPSTREAM_ERROR":
      return new DashboardRefusal(
        error.code,
        "The AI model did not answer: nothing was worked out",
        `Try again in a minute. If it keeps failing, whoever runs the server checks the AI provider's ` +
          `settings; it said: ${error.message}`,
        aiPath,
        options,
      );
    case "SERVICE_UNAVAILABLE":
      return new DashboardRefusal(
        error.code,
        "The AI helpers cannot run just now: nothing was worked out",
        "The server is starting or busy. Try again in a moment.",
        aiPath,
        options,
      );
    default:
      return error;
  }
}

/**
 * The AI screen (docs/dashboard.md, "AI"): triage, summary and sprint plan over the AI service, for admins
 * and owners. Each form answers with the screen and the result under the form: nothing is stored.
 */
export function aiRoutes(kit: DashboardKit) {
  const { ctx, db, view, change, chromeOf } = kit;
  const allowed = (caller: Caller) => requireRole(caller.membership, "admin", "Using the AI helpers");
  const aiPath = (caller: Caller) => href({ projectSlug: caller.membership.projectSlug }, "/admin/ai");

  /**
   * Runs one helper (its role checked and its form read first) as the REST routes do (src/ai/routes.ts): the plan first, so a project below growth is
   * told to upgrade and its refused run costs nothing, then the project's one AI budget, the one the REST
   * routes and the MCP tools draw on, so no surface is a way around it.
   */
  const run = async (caller: Caller, feature: string, inputs: AiInputs, answer: () => Promise<AiAnswer>) => {
    const { projectId } = caller.membership;
    requireAiPlan(db, projectId, feature);
    try {
      enforceRateLimit(ctx.rateLimits.ai, projectId, {});
      const shown = await answer();
      return aiPage(chromeOf(caller, "ai", null), { unavailable: null, inputs, answer: shown });
    } catch (error) {
      throw inMemberWords(error, caller, aiPath(caller));
    }
  };

  return new Elysia({ name: "admin.ai", detail: { hide: true } })
    .get(
      "/admin/ai",
      view("ai", (caller, chrome) => {
        allowed(caller);
        let unavailable: { message: string; hint: string } | null = null;
        try {
          requireAiPlan(db, caller.membership.projectId, "The AI screen");
        } catch (error) {
          if (!(error instanceof ApiError) || error.code !== "PLAN_UPGRADE_REQUIRED") throw error;
          unavailable = { message: error.message, hint: error.hint };
        }
        return aiPage(chrome, { unavailable, inputs: DEFAULT_INPUTS, answer: null });
      }),
    )
    .post(
      "/admin/ai/triage",
      change(
        "ai",
        (caller, form) => {
          allowed(caller);
          const input = requireValid(TriageSchema, { limit: wholeNumberOf(form, "limit") }, "body");
          const inputs = { ...DEFAULT_INPUTS, triageLimit: input.limit ?? DEFAULT_TRIAGE_LIMIT };
          return run(caller, "AI triage", inputs, async () => {
            const { projectId } = caller.membership;
            const result = await triageInbox(ctx.ai, projectId, input);
            const duplicateTitles = new Map<string, string>();
            for (const item of result.recommendations) {
              if (item.duplicate_of) {
                duplicateTitles.set(item.duplicate_of, getPost(db, projectId, item.duplicate_of).title);
              }
            }
            return { helper: "triage", result, duplicateTitles };
          });
        },
        () => TRIAGE_LABELS,
      ),
      { parse: "text" },
    )
    .post(
      "/admin/ai/summary",
      change(
        "ai",
        (caller, form) => {
          allowed(caller);
          const input = requireValid(
            SummaryRequestSchema,
            { period: form.get("period") ?? undefined },
            "body",
          );
          const inputs = { ...DEFAULT_INPUTS, period: input.period ?? DEFAULT_INPUTS.period };
          return run(caller, "AI summaries", inputs, async () => ({
            helper: "summary",
            result: await summariseFeedback(ctx.ai, caller.membership.projectId, input),
          }));
        },
        () => SUMMARY_LABELS,
      ),
      { parse: "text" },
    )
    .post(
      "/admin/ai/sprint-plan",
      change(
        "ai",
        (caller, form) => {
          allowed(caller);
          const input = requireValid(
            SprintPlanRequestSchema,
            { capacity: wholeNumberOf(form, "capacity"), strategy: form.get("strategy") ?? undefined },
            "body",
          );
          const inputs = {
            ...DEFAULT_INPUTS,
            capacity: input.capacity ?? DEFAULT_CAPACITY,
            strategy: input.strategy ?? DEFAULT_INPUTS.strategy,
          };
          return run(caller, "AI sprint planning", inputs, async () => ({
            helper: "plan",
            result: await planSprint(ctx.ai, caller.membership.projectId, input),
          }));
        },
        () => PLAN_LABELS,
      ),
      { parse: "text" },
    );
}
