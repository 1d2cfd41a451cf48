import { Elysia } from "elysia";
import { validationError } from "../http/errors";
import { describeError } from "../log";
import type { KeyKind } from "../projects/schema";
import { createKey, listKeys, revokeProjectKey } from "../projects/service";
import { isTeamRole } from "../team/schema";
import { inviteMember, listMembers, removeMember, requireRole } from "../team/service";
import { type DashboardKit, withNotice } from "./dashboard";
import { href } from "./pages";
import type { Caller } from "./session";
import { keysPage, membersPage } from "./settings-pages";

/** The owners' screens: the project's members and its API keys. */
export function ownerRoutes(kit: DashboardKit) {
  const { ctx, db, view, change, chromeOf } = kit;

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

  return new Elysia({ name: "admin.owners", detail: { hide: true } })
    .get(
      "/admin/members",
      view("members", (caller, chrome) => {
        requireRole(caller.membership, "owner", "Managing members");
        return membersPage(chrome, {
          members: listMembers(db, caller.membership.projectSlug),
          selfId: caller.actor.id,
          inviteUrl: null,
          emailed: false,
        });
      }),
    )
    .post(
      "/admin/members/invite",
      change("members", async (caller, form) => {
        requireRole(caller.membership, "owner", "Managing members");
        const role = form.get("role") ?? "member";
        if (!isTeamRole(role)) throw validationError("role", "must be owner, admin or member");
        const email = form.get("email") ?? "";
        const { token } = inviteMember(db, { email, role, projectSlug: caller.membership.projectSlug });
        const url = `${ctx.config.publicUrl}/admin/invite/${token}`;
        const emailed = await sendInvite(caller, email.trim(), url);
        return membersPage(chromeOf(caller, "members", null), {
          members: listMembers(db, caller.membership.projectSlug),
          selfId: caller.actor.id,
          inviteUrl: url,
          emailed,
        });
      }),
      { parse: "text" },
    )
    .post(
      "/admin/members/remove",
      change("members", (caller, form) => {
        requireRole(caller.membership, "owner", "Managing members");
        const email = form.get("email") ?? "";
        if (email.trim().toLowerCase() === caller.session.member.email.toLowerCase()) {
          throw validationError("email", "you cannot remove yourself; another owner can");
        }
        removeMember(db, caller.membership.projectSlug, email);
        return withNotice(href({ projectSlug: caller.membership.projectSlug }, "/admin/members"), "removed");
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
      change("keys", (caller, form) => {
        requireRole(caller.membership, "owner", "Managing API keys");
        const kind = form.get("kind");
        if (kind !== "secret" && kind !== "publishable")
          throw validationError("kind", "must be secret or publishable");
        const keyKind: KeyKind = kind;
        const key = createKey(db, caller.membership.projectSlug, keyKind);
        return keysPage(chromeOf(caller, "keys", null), {
          keys: listKeys(db, caller.membership.projectSlug),
          createdKey: key,
        });
      }),
      { parse: "text" },
    )
    .post(
      "/admin/keys/revoke",
      change("keys", (caller, form) => {
        requireRole(caller.membership, "owner", "Managing API keys");
        if (!revokeProjectKey(db, caller.membership.projectSlug, form.get("prefix") ?? "")) {
          throw validationError("prefix", "no active key of this project has that prefix");
        }
        return withNotice(href({ projectSlug: caller.membership.projectSlug }, "/admin/keys"), "revoked");
      }),
      { parse: "text" },
    );
}
