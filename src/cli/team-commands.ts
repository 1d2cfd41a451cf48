import { parseArgs } from "node:util";
import type { Config } from "../config";
import type { Db } from "../db/connection";
import { isTeamRole, type TeamRole } from "../team/schema";
import {
  inviteMember,
  listMembers,
  listOpenInvites,
  removeMember,
  resetPassword,
  withdrawInvites,
} from "../team/service";
import { UsageError } from "./usage";

type Print = (line: string) => void;

function role(value: string | undefined): TeamRole {
  if (value === undefined) return "owner";
  if (!isTeamRole(value)) throw new UsageError("--role must be owner, admin or member");
  return value;
}

/**
 * `featureboard team invite|list|remove|withdraw|reset-password`: how the first owner gets in on a fresh
 * install, where nobody can invite them yet, and back in after a lost password (docs/dashboard.md). The
 * invite URL and a reset password are printed once.
 */
export async function teamCommand(args: string[], db: Db, config: Config, print: Print): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "invite") {
    const { values } = parseArgs({
      args: rest,
      options: {
        email: { type: "string" },
        role: { type: "string" },
        project: { type: "string", default: "default" },
        json: { type: "boolean", default: false },
      },
    });
    if (!values.email) throw new UsageError("team invite needs --email");
    const { token, expiresAt, replaced } = inviteMember(db, {
      email: values.email,
      role: role(values.role),
      projectSlug: values.project,
      source: "cli",
    });
    const url = `${config.publicUrl}/admin/invite/${token}`;
    if (values.json)
      print(JSON.stringify({ url, expiresAt: new Date(expiresAt).toISOString(), replaced: replaced > 0 }));
    else {
      print(
        `Invite for ${values.email} (${role(values.role)} of ${values.project}), valid 24 hours, shown once:`,
      );
      print(`  ${url}`);
      // A new invite replaces the email's open one (team/service inviteMember).
      if (replaced > 0)
        print(`It replaces the earlier invite of ${values.email}: that link no longer works.`);
    }
    return 0;
  }
  if (sub === "list") {
    const { values } = parseArgs({
      args: rest,
      options: { project: { type: "string", default: "default" }, json: { type: "boolean", default: false } },
    });
    const members = listMembers(db, values.project);
    const invites = listOpenInvites(db, values.project);
    // The same people as the text below: members, then the invites not accepted yet (`invited: true`).
    if (values.json)
      print(
        JSON.stringify([
          ...members.map((member) => ({ ...member, invited: false })),
          // The id names a row for the Members screen's Withdraw; the command withdraws by email.
          ...invites.map(({ email, role, createdAt, expiresAt }) => ({
            email,
            role,
            createdAt,
            expiresAt,
            invited: true,
          })),
        ]),
      );
    else {
      if (members.length === 0) print(`no team members in ${values.project} yet`);
      for (const member of members) print(`${member.email}\t${member.role}\t${member.name ?? ""}`);
      for (const invite of invites)
        print(`${invite.email}\t${invite.role}\tinvited, link works until ${invite.expiresAt}`);
    }
    return 0;
  }
  if (sub === "withdraw") {
    const { values } = parseArgs({
      args: rest,
      options: { project: { type: "string", default: "default" }, email: { type: "string" } },
    });
    if (!values.email) throw new UsageError("team withdraw needs --email");
    if (!withdrawInvites(db, values.project, values.email, "cli"))
      throw new Error(`${values.email} has no open invite to ${values.project}`);
    print(`withdrew the invite of ${values.email} to ${values.project}; its link no longer works`);
    return 0;
  }
  if (sub === "remove") {
    const { values } = parseArgs({
      args: rest,
      options: { project: { type: "string", default: "default" }, email: { type: "string" } },
    });
    if (!values.email) throw new UsageError("team remove needs --email");
    // An error like every other command's: on stderr, prefixed, exit 1 (main.ts).
    if (!removeMember(db, values.project, values.email, "cli"))
      throw new Error(`${values.email} is not a team member of ${values.project}`);
    print(`removed ${values.email} from ${values.project}; their sessions are ended`);
    return 0;
  }
  if (sub === "reset-password") {
    const { values } = parseArgs({ args: rest, options: { email: { type: "string" } } });
    if (!values.email) throw new UsageError("team reset-password needs --email");
    const password = await resetPassword(db, values.email);
    if (password === null) throw new Error(`${values.email} is not a team member`);
    print(`New password for ${values.email}, shown once (their sessions are ended):`);
    print(`  ${password}`);
    print("They sign in with it at /admin/login and choose their own under Your account.");
    return 0;
  }
  throw new UsageError(`unknown team command: ${sub ?? "(none)"}`);
}
