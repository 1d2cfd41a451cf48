import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { undispatchedEvents } from "../../src/events/store";
import { listKeys } from "../../src/projects/service";
import { inviteMember } from "../../src/team/service";
import { createTestApp, type TestApp } from "../support/app";
import { listen } from "../support/board";
import { csrfOf, postForm, sessionCookieOf } from "../support/dashboard";

/** The first bytes of a PNG: the logo check reads the image's type from them. */
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);

// docs/dashboard.md, "Activity": a change to who may reach the project (keys, members, invites) or to its
// settings writes one activity entry, credited to the dashboard member who made it, filterable by
// entityType through GET /api/v1/activity.
describe("keys, members, invites and settings changed on the dashboard are in the activity log", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let post: (path: string, fields?: Record<string, string>) => Promise<Response>;
  const send = async (path: string, fields: Record<string, string> = {}) => {
    const response = await post(path, fields);
    expect(response.status, path).toBeLessThan(400);
    return response;
  };
  let ritaId: string;
  let cookie: string;
  let eventsBefore: number;
  beforeAll(async () => {
    t = createTestApp();
    server = listen(t);
    const { token } = inviteMember(t.ctx.db, {
      email: "rita@example.com",
      role: "owner",
      projectSlug: "acme",
    });
    cookie = sessionCookieOf(
      await postForm(`${server.url}/admin/invite/${token}`, {
        password: "correct horse battery",
        name: "Rita",
      }),
    );
    const csrf = await csrfOf(server.url, cookie);
    post = (path, fields = {}) =>
      postForm(`${server.url}${path}`, { csrf, project: "acme", ...fields }, cookie);
    ritaId = (await activityOf("member"))[0]!.entityId!;
    eventsBefore = undispatchedEvents(t.ctx.db, 1000).length;
  });
  afterAll(async () => {
    await server.stop();
    t.close();
  });

  interface Entry {
    action: string;
    entityId: string | null;
    metadata: Record<string, unknown> & { teamMember?: { id: string; name: string } };
  }
  const activityOf = async (entityType: string): Promise<Entry[]> => {
    const response = await t.call("GET", `/api/v1/activity?entityType=${entityType}&limit=100`);
    expect(response.status).toBe(200);
    return response.body.data as Entry[];
  };
  const rita = () => ({ id: ritaId, name: "Rita" });

  test("the first owner joining by invite is credited to themselves", async () => {
    expect(await activityOf("member")).toEqual([
      expect.objectContaining({
        action: "joined",
        metadata: {
          email: "rita@example.com",
          role: "owner",
          invite: expect.stringMatching(/^[0-9a-f]{64}$/),
          teamMember: rita(),
        },
      }),
    ]);
  });

  test("creating, renaming and revoking a key: its name and prefix, never the key", async () => {
    const created = await (await send("/admin/keys", { kind: "secret", name: "Zapier" })).text();
    const key = /data-key>([^<]+)</.exec(created)![1]!;
    const prefix = key.slice(0, 11);
    await send("/admin/keys/rename", { prefix, name: " Zapier (sales) " });
    // Saving the same name again changes nothing and records nothing.
    await send("/admin/keys/rename", { prefix, name: "Zapier (sales)" });
    await send("/admin/keys/revoke", { prefix });

    const entries = await activityOf("api_key");
    expect(entries.map(({ action, metadata }) => ({ action, metadata }))).toEqual([
      {
        action: "revoked",
        metadata: { prefix, kind: "secret", name: "Zapier (sales)", teamMember: rita() },
      },
      {
        action: "renamed",
        metadata: { prefix, kind: "secret", from: "Zapier", to: "Zapier (sales)", teamMember: rita() },
      },
      { action: "created", metadata: { prefix, kind: "secret", name: "Zapier", teamMember: rita() } },
    ]);
    expect(new Set(entries.map((entry) => entry.entityId)).size).toBe(1);
    expect(JSON.stringify(entries)).not.toContain(key.slice(11));
  });

  test("a key's name is checked as at creation; another project's key is not renamed", async () => {
    const created = await (await send("/admin/keys", { kind: "publishable" })).text();
    const prefix = /data-key>([^<]+)</.exec(created)![1]!.slice(0, 11);
    const before = (await activityOf("api_key")).length;
    const tooLong = await post("/admin/keys/rename", { prefix, name: "x".repeat(101) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain("must be at most 100 characters");
    const lineBreak = await post("/admin/keys/rename", { prefix, name: "line\nbreak" });
    expect(await lineBreak.text()).toContain("must not contain control characters");
    const theirs = await post("/admin/keys/rename", { prefix: t.other.secretKey.slice(0, 11), name: "Mine" });
    expect(theirs.status).toBe(400);
    expect((await activityOf("api_key")).length).toBe(before);
    expect(listKeys(t.ctx.db, "other-co").map((key) => key.name)).not.toContain("Mine");
  });

  test("inviting, inviting again, withdrawing; joining, a new role, removal", async () => {
    await send("/admin/members/invite", { email: "ada@example.com", role: "member" });
    const again = await (
      await send("/admin/members/invite", { email: "ada@example.com", role: "admin" })
    ).text();
    const inviteId = /name="invite" value="([0-9a-f]{64})"/.exec(again)![1]!;
    await send("/admin/members/withdraw", { invite: inviteId });
    const invites = await activityOf("invite");
    expect(invites.map(({ action, entityId, metadata }) => ({ action, entityId, metadata }))).toEqual([
      {
        action: "withdrawn",
        entityId: inviteId,
        metadata: { email: "ada@example.com", role: "admin", teamMember: rita() },
      },
      {
        action: "created",
        entityId: inviteId,
        metadata: { email: "ada@example.com", role: "admin", replaced: 1, teamMember: rita() },
      },
      {
        action: "created",
        entityId: expect.not.stringMatching(inviteId),
        metadata: { email: "ada@example.com", role: "member", replaced: 0, teamMember: rita() },
      },
      // Rita's own, made before she joined (the test's set-up, with no team member acting).
      expect.objectContaining({ action: "created", metadata: expect.objectContaining({ role: "owner" }) }),
    ]);

    const invited = await (
      await send("/admin/members/invite", { email: "bob@example.com", role: "member" })
    ).text();
    const link = /\/admin\/invite\/([A-Za-z0-9_-]+)/.exec(invited)![1]!;
    await postForm(`${server.url}/admin/invite/${link}`, { password: "another long password", name: "Bob" });
    await send("/admin/members/role", { email: "bob@example.com", role: "admin" });
    // The same role again changes nothing and records nothing.
    await send("/admin/members/role", { email: "bob@example.com", role: "admin" });
    await send("/admin/members/remove", { email: "bob@example.com" });
    const members = await activityOf("member");
    const bobId = members[0]!.entityId;
    expect(members.map(({ action, entityId, metadata }) => ({ action, entityId, metadata }))).toEqual([
      {
        action: "removed",
        entityId: bobId,
        metadata: { email: "bob@example.com", role: "admin", teamMember: rita() },
      },
      {
        action: "role_changed",
        entityId: bobId,
        metadata: { email: "bob@example.com", from: "member", to: "admin", teamMember: rita() },
      },
      {
        action: "joined",
        entityId: bobId,
        metadata: {
          email: "bob@example.com",
          role: "member",
          invite: expect.stringMatching(/^[0-9a-f]{64}$/),
          teamMember: { id: bobId, name: "Bob" },
        },
      },
      expect.objectContaining({ action: "joined", entityId: ritaId }),
    ]);
  });

  test("the project's settings: what changed, old → new; the logo set and removed", async () => {
    await send("/admin/settings", { name: "Acme Inc", isPublic: "false", accentColor: "#FF5500" });
    // Saved again unchanged: nothing to record.
    await send("/admin/settings", { name: "Acme Inc", isPublic: "false", accentColor: "#ff5500" });
    await send("/admin/settings", { name: "Acme Inc", isPublic: "false", defaultAccent: "true" });
    const form = new FormData();
    form.set("csrf", await csrfOf(server.url, cookie));
    form.set("project", "acme");
    form.set("logo", new Blob([PNG], { type: "image/png" }), "logo.png");
    const uploaded = await fetch(`${server.url}/admin/settings/logo`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie },
      body: form,
    });
    expect(uploaded.status).toBeLessThan(400);
    await send("/admin/settings/logo/remove");
    // No logo left to remove: nothing to record.
    await send("/admin/settings/logo/remove");

    const projectId = t.project.project.id;
    const entries = await activityOf("project");
    expect(entries.map(({ action, entityId, metadata }) => ({ action, entityId, metadata }))).toEqual([
      { action: "logo_removed", entityId: projectId, metadata: { teamMember: rita() } },
      {
        action: "logo_changed",
        entityId: projectId,
        metadata: { contentType: "image/png", bytes: PNG.length, teamMember: rita() },
      },
      {
        action: "updated",
        entityId: projectId,
        metadata: {
          changes: ["accentColor"],
          from: { accentColor: "#ff5500" },
          to: { accentColor: null },
          teamMember: rita(),
        },
      },
      {
        action: "updated",
        entityId: projectId,
        metadata: {
          changes: ["name", "isPublic", "accentColor"],
          from: { name: "Acme", isPublic: true, accentColor: null },
          to: { name: "Acme Inc", isPublic: false, accentColor: "#ff5500" },
          teamMember: rita(),
        },
      },
    ]);
  });

  test("none of these changes makes a webhook event: the event types are the specification's", () => {
    expect(undispatchedEvents(t.ctx.db, 1000).length).toBe(eventsBefore);
  });
});
