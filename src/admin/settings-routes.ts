import { Elysia } from "elysia";
import { EVENT_TYPES } from "../events/catalogue";
import { ApiError, errorBody, validationError } from "../http/errors";
import { requestUrl } from "../http/request-info";
import { ImportSchema } from "../imports/schema";
import { csvImportTemplate, exportProject, importData, isForeignBoardExport } from "../imports/service";
import { requireValid } from "../http/validation-message";
import { WebhookCreateSchema, WebhookUpdateSchema } from "../webhooks/schema";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  replayDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
} from "../webhooks/service";
import { describeError } from "../log";
import type { KeyKind } from "../projects/schema";
import {
  createKey,
  listKeys,
  removeProjectLogo,
  renameKey,
  requireProjectBySlug,
  revokeProjectKey,
  setProjectLogo,
  updateProjectSettings,
} from "../projects/service";
import { isTeamRole } from "../team/schema";
import {
  changeRole,
  inviteMember,
  listMembers,
  listOpenInvites,
  removeMember,
  requireRole,
  withdrawInvite,
} from "../team/service";
import { DashboardRefusal, type DashboardKit, redirect, signInFirst, withNotice } from "./dashboard";
import { href } from "./pages";
import { type Caller, callerIn } from "./session";
import {
  IMPORT_LABELS,
  importPage,
  INVITE_LABELS,
  KEY_ROW_LABELS,
  keysPage,
  LOGO_LABELS,
  membersPage,
  NEW_KEY_LABELS,
  NEW_WEBHOOK_LABELS,
  projectSettingsPage,
  SETTINGS_LABELS,
  skippedRowLine,
  testEventResult,
  WEBHOOK_LABELS,
  webhookPage,
  webhooksPage,
} from "./settings-pages";

const membersPath = (caller: Caller) =>
  href({ projectSlug: caller.membership.projectSlug }, "/admin/members");

/** Whether a Members form's hidden `email` names the owner sending it (emails compare without case). */
function isSelf(caller: Caller, email: string): boolean {
  return email.trim().toLowerCase() === caller.session.member.email.toLowerCase();
}

/**
 * An email that is no member of the project (removed meanwhile by another owner, from a page still open):
 * Remove and a role change refuse it alike, saying what did not happen (`nothingDone`), never naming the
 * form's hidden `email` field, with the Members screen to open again (docs/dashboard.md, "Team accounts").
 */
function noMember(caller: Caller, email: string, nothingDone: string): DashboardRefusal {
  return new DashboardRefusal(
    "VALIDATION_ERROR",
    `${email.trim() || "An empty email"} is no member of ${caller.membership.projectName}: ${nothingDone}`,
    "They may have been removed already; open the Members screen again to see the team.",
    membersPath(caller),
  );
}

/** Settings: members and API keys (owners), webhooks (admins and owners). */
export function settingsRoutes(kit: DashboardKit) {
  const { ctx, db, view, change, upload, chromeOf, act, sessionOf, failure } = kit;
  const webhookPath = (caller: Caller, webhookId: string) =>
    href({ projectSlug: caller.membership.projectSlug }, `/admin/webhooks/${webhookId}`);

  const sendInvite = async (caller: Caller, email: string, url: string): Promise<boolean> => {
    if (!ctx.mail.canSend) return false;
    try {
      await ctx.mail.sendNow({
        to: email,
        subject: `You are invited to ${caller.membership.projectName} on featureboard`,
        text: `${caller.actor.name} invited you to the team of ${caller.membership.projectName}.\n\nSet your password and sign in (the link works once, within 24 hours):\n${url}\n`,
      });
      return true;
    } catch (error) {
      ctx.log.warn("invite email failed", describeError(error));
      return false;
    }
  };

  return (
    new Elysia({ name: "admin.settings", detail: { hide: true } })
      .get(
        "/admin/members",
        view("members", (caller, chrome) => {
          requireRole(caller.membership, "owner", "Managing members");
          return membersPage(chrome, {
            members: listMembers(db, caller.membership.projectSlug),
            invites: listOpenInvites(db, caller.membership.projectSlug),
            selfId: caller.actor.id,
            inviteUrl: null,
            emailed: false,
          });
        }),
      )
      .post(
        "/admin/members/invite",
        change(
          "members",
          async (caller, form) => {
            requireRole(caller.membership, "owner", "Managing members");
            const role = form.get("role") ?? "member";
            if (!isTeamRole(role)) throw validationError("role", "must be owner, admin or member");
            const email = form.get("email") ?? "";
            const { token, replaced } = act(caller, () =>
              inviteMember(db, { email, role, projectSlug: caller.membership.projectSlug }),
            );
            const url = `${ctx.config.publicUrl}/admin/invite/${token}`;
            const emailed = await sendInvite(caller, email.trim(), url);
            return membersPage(chromeOf(caller, "members", null), {
              members: listMembers(db, caller.membership.projectSlug),
              invites: listOpenInvites(db, caller.membership.projectSlug),
              selfId: caller.actor.id,
              inviteUrl: url,
              emailed,
              replacedFor: replaced > 0 ? email.trim() : null,
            });
          },
          () => INVITE_LABELS,
        ),
        { parse: "text" },
      )
      .post(
        "/admin/members/role",
        change(
          "members",
          (caller, form) => {
            requireRole(caller.membership, "owner", "Managing members");
            const role = form.get("role") ?? "";
            if (!isTeamRole(role)) throw validationError("role", "must be owner, admin or member");
            const email = form.get("email") ?? "";
            const outcome = act(caller, () => changeRole(db, caller.membership.projectSlug, email, role));
            if (outcome === "notMember") throw noMember(caller, email, "no role was changed");
            if (outcome === "lastOwner") {
              throw new DashboardRefusal(
                "VALIDATION_ERROR",
                `${caller.membership.projectName}'s last owner cannot step down: no role was changed`,
                "Someone must keep managing members and keys: make another member owner first.",
                membersPath(caller),
              );
            }
            // An owner who stepped down may no longer open Members: the inbox, saying why, not a 403.
            if (outcome === "changed" && role !== "owner" && isSelf(caller, email)) {
              return withNotice(
                href({ projectSlug: caller.membership.projectSlug }, "/admin"),
                "steppedDown",
              );
            }
            return withNotice(membersPath(caller), outcome === "changed" ? "saved" : "unchanged");
          },
          () => ({ role: INVITE_LABELS.role }),
        ),
        { parse: "text" },
      )
      .post(
        "/admin/members/withdraw",
        change("members", (caller, form) => {
          requireRole(caller.membership, "owner", "Managing members");
          // The row clicked, by its id: not every invite of its email (docs/dashboard.md).
          const invite = form.get("invite") ?? "";
          if (act(caller, () => withdrawInvite(db, caller.membership.projectSlug, invite)) === null) {
            throw new DashboardRefusal(
              "INVITE_INVALID",
              "This invite is no longer open: it was accepted, withdrawn, replaced or has expired",
              "Open the Members screen again to see the invites still open.",
              membersPath(caller),
            );
          }
          return withNotice(membersPath(caller), "withdrawn");
        }),
        { parse: "text" },
      )
      .post(
        "/admin/members/remove",
        change("members", (caller, form) => {
          requireRole(caller.membership, "owner", "Managing members");
          const email = form.get("email") ?? "";
          // The page offers no Remove in the owner's own row; a form sent anyway is refused in words.
          if (isSelf(caller, email)) {
            throw new DashboardRefusal(
              "VALIDATION_ERROR",
              `You cannot remove yourself from ${caller.membership.projectName}: nobody was removed`,
              "Another owner can remove you.",
              membersPath(caller),
            );
          }
          // As Change and Withdraw: a removal that removed nobody says so, not "Member removed."
          if (!act(caller, () => removeMember(db, caller.membership.projectSlug, email))) {
            throw noMember(caller, email, "nobody was removed");
          }
          return withNotice(membersPath(caller), "removed");
        }),
        { parse: "text" },
      )
      .get(
        "/admin/keys",
        view("keys", (caller, chrome) => {
          requireRole(caller.membership, "owner", "Managing API keys");
          return keysPage(chrome, { keys: listKeys(db, caller.membership.projectSlug), createdKey: null });
        }),
      )
      .post(
        "/admin/keys",
        change(
          "keys",
          (caller, form) => {
            requireRole(caller.membership, "owner", "Managing API keys");
            const kind = form.get("kind");
            if (kind !== "secret" && kind !== "publishable")
              throw validationError("kind", "must be secret or publishable");
            const keyKind: KeyKind = kind;
            const key = act(caller, () =>
              createKey(db, caller.membership.projectSlug, keyKind, form.get("name")),
            );
            return keysPage(chromeOf(caller, "keys", null), {
              keys: listKeys(db, caller.membership.projectSlug),
              createdKey: key,
            });
          },
          () => NEW_KEY_LABELS,
        ),
        { parse: "text" },
      )
      .post(
        "/admin/keys/revoke",
        change("keys", (caller, form) => {
          requireRole(caller.membership, "owner", "Managing API keys");
          const prefix = form.get("prefix") ?? "";
          if (!act(caller, () => revokeProjectKey(db, caller.membership.projectSlug, prefix))) {
            throw validationError("prefix", "no active key of this project has that prefix");
          }
          return withNotice(href({ projectSlug: caller.membership.projectSlug }, "/admin/keys"), "revoked");
        }),
        { parse: "text" },
      )
      .post(
        "/admin/keys/rename",
        change(
          "keys",
          (caller, form) => {
            requireRole(caller.membership, "owner", "Managing API keys");
            const prefix = form.get("prefix") ?? "";
            const name = form.get("name");
            if (act(caller, () => renameKey(db, caller.membership.projectSlug, prefix, name)) === null) {
              throw validationError("prefix", "no key of this project has that prefix");
            }
            return withNotice(href({ projectSlug: caller.membership.projectSlug }, "/admin/keys"), "saved");
          },
          () => KEY_ROW_LABELS,
        ),
        { parse: "text" },
      )
      // ---- admins and owners: webhooks ----
      .get(
        "/admin/webhooks",
        view("webhooks", (caller, chrome) => {
          requireRole(caller.membership, "admin", "Managing webhooks");
          return webhooksPage(chrome, {
            webhooks: listWebhooks(db, caller.membership.projectId),
            eventTypes: EVENT_TYPES,
            created: null,
          });
        }),
      )
      .post(
        "/admin/webhooks",
        change(
          "webhooks",
          async (caller, form) => {
            requireRole(caller.membership, "admin", "Managing webhooks");
            const description = form.get("description") ?? "";
            const input = requireValid(
              WebhookCreateSchema,
              {
                url: form.get("url") ?? "",
                events: eventsOf(form),
                ...(description.trim() === "" ? {} : { description }),
              },
              "body",
            );
            // The service checks the URL before it writes: it keeps the member acting across that wait.
            const created = await act(caller, () =>
              createWebhook(db, caller.membership.projectId, input, ctx.config),
            );
            return webhooksPage(chromeOf(caller, "webhooks", null), {
              webhooks: listWebhooks(db, caller.membership.projectId),
              eventTypes: EVENT_TYPES,
              created: { id: created.id, secret: created.secret },
            });
          },
          () => NEW_WEBHOOK_LABELS,
        ),
        { parse: "text" },
      )
      .get(
        "/admin/webhooks/:webhookId",
        view("webhooks", (caller, chrome, _url, params) => {
          requireRole(caller.membership, "admin", "Managing webhooks");
          return webhookPage(chrome, {
            webhook: getWebhook(db, caller.membership.projectId, params.webhookId ?? ""),
            eventTypes: EVENT_TYPES,
            newSecret: null,
            testResult: null,
          });
        }),
      )
      .post(
        "/admin/webhooks/:webhookId/edit",
        change(
          "webhooks",
          async (caller, form, params) => {
            requireRole(caller.membership, "admin", "Managing webhooks");
            const webhookId = params.webhookId ?? "";
            const description = form.get("description") ?? "";
            const patch = requireValid(
              WebhookUpdateSchema,
              {
                url: form.get("url") ?? "",
                events: eventsOf(form),
                enabled: form.get("enabled") === "true",
                description: description.trim() === "" ? null : description,
              },
              "body",
            );
            await act(caller, () =>
              updateWebhook(db, caller.membership.projectId, webhookId, patch, ctx.config),
            );
            return withNotice(webhookPath(caller, webhookId), "saved");
          },
          () => WEBHOOK_LABELS,
        ),
        { parse: "text" },
      )
      .post(
        "/admin/webhooks/:webhookId/rotate",
        change("webhooks", (caller, _form, params) => {
          requireRole(caller.membership, "admin", "Managing webhooks");
          const { projectId } = caller.membership;
          const webhookId = params.webhookId ?? "";
          const secret = act(caller, () => rotateWebhookSecret(db, projectId, webhookId));
          return webhookPage(chromeOf(caller, "webhooks", null), {
            webhook: getWebhook(db, projectId, webhookId),
            eventTypes: EVENT_TYPES,
            newSecret: secret,
            testResult: null,
          });
        }),
        { parse: "text" },
      )
      .post(
        "/admin/webhooks/:webhookId/replay",
        change("webhooks", (caller, form, params) => {
          requireRole(caller.membership, "admin", "Managing webhooks");
          const webhookId = params.webhookId ?? "";
          act(caller, () =>
            replayDelivery(db, caller.membership.projectId, webhookId, form.get("deliveryId") ?? ""),
          );
          return withNotice(webhookPath(caller, webhookId), "replayed");
        }),
        { parse: "text" },
      )
      .post(
        "/admin/webhooks/:webhookId/test",
        change("webhooks", async (caller, _form, params) => {
          requireRole(caller.membership, "admin", "Managing webhooks");
          const { projectId } = caller.membership;
          const webhookId = params.webhookId ?? "";
          // The page waits for the one attempt (bounded by the delivery's time-out) and says how it went.
          const outcome = await act(caller, () => sendTestEvent(db, projectId, webhookId, ctx.config));
          return webhookPage(chromeOf(caller, "webhooks", null), {
            webhook: getWebhook(db, projectId, webhookId),
            eventTypes: EVENT_TYPES,
            newSecret: null,
            testResult: testEventResult(outcome),
          });
        }),
        { parse: "text" },
      )
      .post(
        "/admin/webhooks/:webhookId/delete",
        change("webhooks", (caller, _form, params) => {
          requireRole(caller.membership, "admin", "Managing webhooks");
          act(caller, () => deleteWebhook(db, caller.membership.projectId, params.webhookId ?? ""));
          return withNotice(
            href({ projectSlug: caller.membership.projectSlug }, "/admin/webhooks"),
            "deleted",
          );
        }),
        { parse: "text" },
      )
      // ---- admins and owners: import and export ----
      .get(
        "/admin/import",
        view("import", (caller, chrome) => {
          requireRole(caller.membership, "admin", "Importing and exporting");
          return importPage(chrome, { job: null, result: null });
        }),
      )
      // The template CSV the Import screen links to: for whoever may open that screen, as the screen is.
      .get("/admin/import/template", ({ request }) => {
        const session = sessionOf(request);
        const url = requestUrl(request);
        if (!session) return signInFirst(url);
        try {
          const caller = callerIn(session, url.searchParams.get("project") ?? "");
          requireRole(caller.membership, "admin", "Importing and exporting");
          return new Response(csvImportTemplate(), {
            headers: {
              "content-type": "text/csv; charset=utf-8",
              "content-disposition": 'attachment; filename="featureboard-import-template.csv"',
              "cache-control": "no-store",
            },
          });
        } catch (error) {
          return failure(error, null);
        }
      })
      .post(
        "/admin/import",
        upload(
          "import",
          "file",
          async (caller, file, chrome) => {
            requireRole(caller.membership, "admin", "Importing and exporting");
            // A leading BOM (spreadsheets save one) is no part of the text.
            const text = (await file.text()).replace(/^\uFEFF/, "");
            const { projectId, projectSlug } = caller.membership;
            const start = text.trimStart();
            // A board export is an object or an array holding it, as the API takes it (docs/export-format.md).
            if (start.startsWith("{") || start.startsWith("[")) {
              let document: unknown;
              try {
                document = JSON.parse(text);
              } catch {
                throw validationError("file", "is not valid JSON (a board export) nor CSV");
              }
              // The API's words ("must have format 'featureboard.board-export' and version 1", after the
              // file's whole label) told a person nothing they could act on (docs/dashboard.md, "Import").
              if (isForeignBoardExport(document)) {
                throw new DashboardRefusal(
                  "VALIDATION_ERROR",
                  "This file is not a featureboard board export (or is one from a newer version): export it again with “Download the lossless export” on this screen (or GET /api/v1/export) and import that file.",
                  "Choose a CSV file, or a board export downloaded from featureboard, and send the form again.",
                );
              }
              const input = requireValid(ImportSchema, { source: "board-export", data: document }, "file");
              // The board-export path is synchronous, so actAs covers all it records.
              const result = await act(caller, () => importData(db, projectId, input));
              return importPage(chrome, { job: null, result });
            }
            const job = await ctx.imports.start(projectId, text, caller.actor);
            return href({ projectSlug }, `/admin/import/${job.id}`);
          },
          IMPORT_LABELS,
        ),
        { parse: "formdata" },
      )
      .get(
        "/admin/import/:jobId",
        view("import", (caller, chrome, _url, params) => {
          requireRole(caller.membership, "admin", "Importing and exporting");
          const job = ctx.imports.get(caller.membership.projectId, params.jobId ?? "");
          return importPage(chrome, { job, result: null });
        }),
      )
      .get("/admin/import/:jobId/progress", ({ request, params }) => {
        const session = sessionOf(request);
        if (!session) return Response.json({ error: "signed out" }, { status: 401 });
        try {
          const caller = callerIn(session, requestUrl(request).searchParams.get("project") ?? "");
          requireRole(caller.membership, "admin", "Importing and exporting");
          const job = ctx.imports.get(caller.membership.projectId, params.jobId);
          return Response.json(
            {
              state: job.state,
              total: job.total,
              done: job.done,
              imported: job.imported,
              skipped: job.skipped,
              alreadyImported: job.alreadyImported,
              // Once the job is over, why rows were skipped (and why a failed job stopped): the page shows
              // them when it sees the end, without a reload. Not sent while it runs: the page polls often.
              // `skippedRows` are the page's own words for them (skippedRowLine), so both read the same.
              ...(job.state === "running"
                ? {}
                : { errors: job.errors, skippedRows: job.errors.map(skippedRowLine), failure: job.failure }),
            },
            { headers: { "cache-control": "no-store" } },
          );
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          // The API's error body (its `error` is what the page's script reads), as every JSON answer has.
          return Response.json(errorBody(error, ctx.config.publicUrl), { status: error.status });
        }
      })
      .get("/admin/export", async ({ request }) => {
        const session = sessionOf(request);
        if (!session) return redirect("/admin/login");
        try {
          const caller = callerIn(session, requestUrl(request).searchParams.get("project") ?? "");
          requireRole(caller.membership, "admin", "Importing and exporting");
          const project = requireProjectBySlug(db, caller.membership.projectSlug);
          const day = new Date().toISOString().slice(0, 10);
          return new Response(JSON.stringify(exportProject(db, project)), {
            headers: {
              "content-type": "application/json; charset=utf-8",
              "content-disposition": `attachment; filename="featureboard-${project.slug}-${day}.json"`,
              "cache-control": "no-store",
            },
          });
        } catch (error) {
          return failure(error, null);
        }
      })
      // ---- admins and owners: the project's settings and branding ----
      .get(
        "/admin/settings",
        view("settings", (caller, chrome) => {
          requireRole(caller.membership, "admin", "Changing the project's settings");
          return projectSettingsPage(chrome, {
            project: requireProjectBySlug(db, caller.membership.projectSlug),
            boardUrl: `${ctx.config.publicUrl}/b/${caller.membership.projectSlug}`,
            smtp: ctx.mail.canSend,
            memberEmail: caller.session.member.email,
          });
        }),
      )
      .post(
        "/admin/settings",
        change(
          "settings",
          (caller, form) => {
            requireRole(caller.membership, "admin", "Changing the project's settings");
            act(caller, () =>
              updateProjectSettings(db, caller.membership.projectId, {
                name: form.get("name") ?? "",
                isPublic: form.get("isPublic") === "true",
                accentColor: form.get("defaultAccent") === "true" ? null : (form.get("accentColor") ?? null),
              }),
            );
            return withNotice(
              href({ projectSlug: caller.membership.projectSlug }, "/admin/settings"),
              "saved",
            );
          },
          () => SETTINGS_LABELS,
        ),
        { parse: "text" },
      )
      .post(
        "/admin/settings/logo",
        upload(
          "settings",
          "logo",
          async (caller, file) => {
            requireRole(caller.membership, "admin", "Changing the project's settings");
            const bytes = new Uint8Array(await file.arrayBuffer());
            act(caller, () => setProjectLogo(db, caller.membership.projectId, bytes));
            return withNotice(
              href({ projectSlug: caller.membership.projectSlug }, "/admin/settings"),
              "saved",
            );
          },
          LOGO_LABELS,
        ),
        { parse: "formdata" },
      )
      .post(
        "/admin/settings/logo/remove",
        change("settings", (caller) => {
          requireRole(caller.membership, "admin", "Changing the project's settings");
          act(caller, () => removeProjectLogo(db, caller.membership.projectId));
          return withNotice(href({ projectSlug: caller.membership.projectSlug }, "/admin/settings"), "saved");
        }),
        { parse: "text" },
      )
      .post(
        "/admin/settings/test-email",
        change("settings", async (caller) => {
          requireRole(caller.membership, "admin", "Changing the project's settings");
          try {
            await ctx.mail.sendNow({
              to: caller.session.member.email,
              subject: `featureboard test email for ${caller.membership.projectName}`,
              text: "This is a test email from your featureboard dashboard: the SMTP settings work.\n",
            });
          } catch (error) {
            throw new ApiError(
              "UPSTREAM_ERROR",
              `The test email was not sent: ${error instanceof Error ? error.message : String(error)}`,
              "Check FEATUREBOARD_SMTP_URL and that the SMTP server accepts mail from featureboard.",
            );
          }
          return withNotice(
            href({ projectSlug: caller.membership.projectSlug }, "/admin/settings"),
            "emailed",
          );
        }),
        { parse: "text" },
      )
  );
}

/**
 * The events a webhook form chose: the events ticked, else every event when "Every event" is ticked (the
 * new endpoint's default, which ticking an event unticks: docs/dashboard.md).
 */
function eventsOf(form: URLSearchParams): string[] {
  const ticked = form.getAll("events");
  const chosen = ticked.filter((event) => event !== "*");
  if (chosen.length > 0) return chosen;
  if (ticked.includes("*")) return ["*"];
  throw new ApiError(
    "VALIDATION_ERROR",
    "Choose at least one event to send, or Every event",
    "Tick the events the endpoint should receive.",
  );
}
