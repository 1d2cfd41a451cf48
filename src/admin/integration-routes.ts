import { Elysia } from "elysia";
import { validationError } from "../http/errors";
import { requireValid } from "../http/validation-message";
import {
  CodeHostPut,
  CommunityChatPut,
  type IntegrationKind,
  IssueTrackerPut,
  TeamChatPut,
} from "../integrations/schema";
import { testIntegration } from "../integrations/senders";
import { deleteIntegration, findIntegration, putIntegration } from "../integrations/service";
import { PaymentsConfigInputSchema } from "../payments/schema";
import {
  deletePaymentsConfig,
  findPaymentsConfig,
  savePaymentsConfig,
  syncPayments,
} from "../payments/service";
import { requireRole } from "../team/service";
import { type DashboardKit, type FieldLabels, withNotice } from "./dashboard";
import { href, type TestResult } from "./pages";
import type { Caller } from "./session";
import { type IntegrationCard, integrationsPage } from "./settings-pages";

type CardKind = IntegrationKind | "payments";
const CARD_KINDS: readonly CardKind[] = [
  "team-chat",
  "community-chat",
  "code-host",
  "issue-tracker",
  "payments",
];

function cardKindOf(value: string | undefined): CardKind {
  const kind = CARD_KINDS.find((candidate) => candidate === value);
  if (!kind) throw validationError("kind", `must be one of ${CARD_KINDS.join(", ")}`);
  return kind;
}

/** Text of a form field with the empty string read as "not given". */
function optional(form: URLSearchParams, name: string): string | undefined {
  const value = form.get(name) ?? "";
  return value.trim() === "" ? undefined : value;
}

/** The chat, code host, issue tracker and payments settings (admins and owners), each with a test. */
export function integrationRoutes(kit: DashboardKit) {
  const { ctx, db, view, change, chromeOf, act } = kit;
  const allowed = (caller: Caller) => requireRole(caller.membership, "admin", "Managing integrations");

  /** Every card of the screen; `tested` carries what a test (or a sync, for payments) just did, by kind. */
  const cards = (
    projectId: string,
    tested: Partial<Record<CardKind, TestResult>> = {},
  ): IntegrationCard[] => {
    const teamChat = findIntegration(db, projectId, "team-chat");
    const communityChat = findIntegration(db, projectId, "community-chat");
    const codeHost = findIntegration(db, projectId, "code-host");
    const issueTracker = findIntegration(db, projectId, "issue-tracker");
    const payments = findPaymentsConfig(db, projectId);
    const lastSync = payments?.lastSync
      ? `Last sync ${payments.lastSyncAt?.slice(0, 16).replace("T", " ")} UTC: ${payments.lastSync.status}, ${payments.lastSync.message}`
      : null;
    return [
      {
        kind: "team-chat",
        title: "Team chat (Slack-compatible)",
        description: "New requests and public comments, posted to an incoming-webhook URL.",
        configured: teamChat !== null,
        enabled: teamChat?.enabled ?? false,
        fields: [
          {
            name: "webhookUrl",
            label: "Incoming-webhook URL",
            type: "secret",
            value: teamChat?.webhookUrl ?? null,
            required: true,
          },
          { name: "channel", label: "Channel (optional)", type: "text", value: teamChat?.channel ?? null },
          { name: "enabled", label: "Enabled", type: "checkbox", value: teamChat?.enabled ?? true },
        ],
        note: null,
        testResult: tested["team-chat"] ?? null,
        actions: ["test"],
      },
      {
        kind: "community-chat",
        title: "Community chat (Discord-compatible)",
        description: "New requests and public comments, posted to a channel webhook.",
        configured: communityChat !== null,
        enabled: communityChat?.enabled ?? false,
        fields: [
          {
            name: "webhookUrl",
            label: "Channel webhook URL",
            type: "secret",
            value: communityChat?.webhookUrl ?? null,
            required: true,
          },
          { name: "enabled", label: "Enabled", type: "checkbox", value: communityChat?.enabled ?? true },
        ],
        note: null,
        testResult: tested["community-chat"] ?? null,
        actions: ["test"],
      },
      {
        kind: "code-host",
        title: "Code host (GitHub)",
        description: "Opens an issue when a request is approved; links it on the request.",
        configured: codeHost !== null,
        enabled: codeHost?.enabled ?? false,
        fields: [
          {
            name: "repoOwner",
            label: "Owner",
            type: "text",
            value: codeHost?.repoOwner ?? null,
            required: true,
          },
          {
            name: "repoName",
            label: "Repository",
            type: "text",
            value: codeHost?.repoName ?? null,
            required: true,
          },
          {
            name: "accessToken",
            label: "Access token (kept when left empty)",
            type: "secret",
            value: codeHost?.accessToken ?? null,
          },
          {
            name: "syncLabels",
            label: "Tags become labels",
            type: "checkbox",
            value: codeHost?.syncLabels ?? false,
          },
          {
            name: "autoCreateIssues",
            label: "Open issues automatically",
            type: "checkbox",
            value: codeHost?.autoCreateIssues ?? false,
          },
          { name: "enabled", label: "Enabled", type: "checkbox", value: codeHost?.enabled ?? true },
        ],
        note: null,
        testResult: tested["code-host"] ?? null,
        actions: ["test"],
      },
      {
        kind: "issue-tracker",
        title: "Issue tracker (Linear)",
        description: "Opens an issue in a team when a request is approved.",
        configured: issueTracker !== null,
        enabled: issueTracker?.enabled ?? false,
        fields: [
          {
            name: "apiKey",
            label: "API key",
            type: "secret",
            value: issueTracker?.apiKey ?? null,
            required: true,
          },
          { name: "teamId", label: "Team id", type: "text", value: issueTracker?.teamId ?? null },
          {
            name: "autoCreateIssues",
            label: "Open issues automatically",
            type: "checkbox",
            value: issueTracker?.autoCreateIssues ?? false,
          },
          { name: "enabled", label: "Enabled", type: "checkbox", value: issueTracker?.enabled ?? true },
        ],
        note: null,
        testResult: tested["issue-tracker"] ?? null,
        actions: ["test"],
      },
      {
        kind: "payments",
        title: "Payments (Stripe)",
        description: "Sets each customer's monthly spend on their board user, daily or now.",
        configured: payments !== null,
        enabled: payments?.enabled ?? false,
        fields: [
          {
            name: "apiKey",
            label: "Secret or restricted API key",
            type: "secret",
            value: payments?.apiKey ?? null,
            required: true,
          },
          {
            name: "enabled",
            label: "Enabled (daily sync)",
            type: "checkbox",
            value: payments?.enabled ?? true,
          },
        ],
        // A sync just run shows under its button as a test's result does; the stored last sync would say it twice.
        note: tested.payments ? null : lastSync,
        testResult: tested.payments ?? null,
        actions: ["sync"],
      },
    ];
  };

  const back = (caller: Caller, notice: "saved" | "integrationRemoved" = "saved") =>
    withNotice(href({ projectSlug: caller.membership.projectSlug }, "/admin/integrations"), notice);
  /** The labels of a card's fields, as its form shows them (`cards`): a refusal names them so. */
  const labelsOf = (caller: Caller, params: Record<string, string>): FieldLabels => {
    const card = cards(caller.membership.projectId).find((candidate) => candidate.kind === params.kind);
    return Object.fromEntries((card?.fields ?? []).map((field) => [field.name, field.label]));
  };

  return new Elysia({ name: "admin.integrations", detail: { hide: true } })
    .get(
      "/admin/integrations",
      view("integrations", (caller, chrome) => {
        allowed(caller);
        return integrationsPage(chrome, cards(caller.membership.projectId));
      }),
    )
    .post(
      "/admin/integrations/:kind",
      change(
        "integrations",
        async (caller, form, params) => {
          allowed(caller);
          const kind = cardKindOf(params.kind);
          const { projectId } = caller.membership;
          const enabled = form.get("enabled") === "true";
          if (kind === "payments") {
            const input = requireValid(
              PaymentsConfigInputSchema,
              { apiKey: form.get("apiKey") ?? "", enabled },
              "body",
            );
            act(caller, () => savePaymentsConfig(db, projectId, input));
          } else if (kind === "team-chat") {
            const input = requireValid(
              TeamChatPut,
              {
                webhookUrl: form.get("webhookUrl") ?? "",
                channel: optional(form, "channel") ?? null,
                enabled,
              },
              "body",
            );
            await act(caller, () => putIntegration(db, projectId, kind, input, ctx.config));
          } else if (kind === "community-chat") {
            const input = requireValid(
              CommunityChatPut,
              { webhookUrl: form.get("webhookUrl") ?? "", enabled },
              "body",
            );
            await act(caller, () => putIntegration(db, projectId, kind, input, ctx.config));
          } else if (kind === "code-host") {
            const accessToken = optional(form, "accessToken");
            const input = requireValid(
              CodeHostPut,
              {
                repoOwner: (form.get("repoOwner") ?? "").trim(),
                repoName: (form.get("repoName") ?? "").trim(),
                ...(accessToken === undefined ? {} : { accessToken }),
                syncLabels: form.get("syncLabels") === "true",
                autoCreateIssues: form.get("autoCreateIssues") === "true",
                enabled,
              },
              "body",
            );
            await act(caller, () => putIntegration(db, projectId, kind, input, ctx.config));
          } else {
            const input = requireValid(
              IssueTrackerPut,
              {
                apiKey: form.get("apiKey") ?? "",
                teamId: optional(form, "teamId") ?? null,
                autoCreateIssues: form.get("autoCreateIssues") === "true",
                enabled,
              },
              "body",
            );
            await act(caller, () => putIntegration(db, projectId, kind, input, ctx.config));
          }
          return back(caller);
        },
        labelsOf,
      ),
      { parse: "text" },
    )
    .post(
      "/admin/integrations/:kind/test",
      change("integrations", async (caller, _form, params) => {
        allowed(caller);
        const kind = cardKindOf(params.kind);
        if (kind === "payments") throw validationError("kind", "payments has Sync now, not a test");
        const { projectId, projectName } = caller.membership;
        const outcome = await act(caller, () =>
          testIntegration(db, projectId, kind, projectName, ctx.config),
        );
        return integrationsPage(
          chromeOf(caller, "integrations", null),
          cards(projectId, { [kind]: outcome }),
        );
      }),
      { parse: "text" },
    )
    .post(
      "/admin/integrations/payments/sync",
      change("integrations", async (caller) => {
        allowed(caller);
        const { projectId } = caller.membership;
        const result = await act(caller, () => syncPayments(ctx, projectId));
        // Drawn as a test's result (testResultNote, docs/dashboard.md "A test's result"): a sync with errors,
        // partial or failed, was a green notice and read as a success.
        const outcome: TestResult = {
          ok: result.status === "success",
          message: `Sync ${result.status}: ${result.message} (${result.matchedUsers} matched, ${result.createdUsers} created)`,
        };
        return integrationsPage(
          chromeOf(caller, "integrations", null),
          cards(projectId, { payments: outcome }),
        );
      }),
      { parse: "text" },
    )
    .post(
      "/admin/integrations/:kind/remove",
      change("integrations", (caller, _form, params) => {
        allowed(caller);
        const kind = cardKindOf(params.kind);
        const { projectId } = caller.membership;
        act(caller, () =>
          kind === "payments" ? deletePaymentsConfig(db, projectId) : deleteIntegration(db, projectId, kind),
        );
        return back(caller, "integrationRemoved");
      }),
      { parse: "text" },
    );
}
