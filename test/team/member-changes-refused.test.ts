import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { inviteMember, listMembers } from "../../src/team/service";
import { createTestApp, type TestApp } from "../support/app";
import { listen } from "../support/board";
import { csrfOf, postForm, sessionCookieOf, textShown } from "../support/dashboard";

// docs/dashboard.md, "Team accounts": a role change or a removal that finds nobody to change (the member was
// removed meanwhile by another owner, on a page still open), the last owner stepping down, an owner removing
// themselves: each is refused with a sentence and a link back to the Members screen, never with the name of
// the form's hidden `email` field, and changes nothing. An owner who steps down lands where they still may go.
describe("Members: changes that find nobody, or that the rules refuse, say so in a sentence", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  /** Rita and Ola, two owners of Acme, each signed in in a browser of their own. */
  let rita: (path: string, fields: Record<string, string>) => Promise<Response>;
  let ola: (path: string, fields: Record<string, string>) => Promise<Response>;
  let olaCookie: string;

  const join = async (email: string, role: "owner" | "member") => {
    const { token } = inviteMember(t.ctx.db, { email, role, projectSlug: "acme" });
    const cookie = sessionCookieOf(
      await postForm(`${server.url}/admin/invite/${token}`, { password: "a long enough password" }),
    );
    const csrf = await csrfOf(server.url, cookie);
    const send = (path: string, fields: Record<string, string>) =>
      // A `once` id of its own per form, as each page gives its forms.
      postForm(
        `${server.url}${path}`,
        { csrf, project: "acme", once: crypto.randomUUID(), ...fields },
        cookie,
      );
    return { cookie, send };
  };

  beforeAll(async () => {
    t = createTestApp();
    server = listen(t);
    ({ send: rita } = await join("rita@example.com", "owner"));
    ({ send: ola, cookie: olaCookie } = await join("ola@example.com", "owner"));
    await join("bo@example.com", "member");
  });
  afterAll(async () => {
    await server.stop();
    t.close();
  });

  /** What a refused form's page says (its alert) and where its one link goes. */
  const refusalOf = async (response: Response) => {
    const markup = await response.text();
    return {
      status: response.status,
      alert: textShown(/role="alert"[^>]*>([^<]*)</.exec(markup)?.[1] ?? ""),
      page: textShown(markup),
      reopen:
        /<a href="([^"]*)">Open the page again<\/a>/.exec(markup)?.[1]?.replaceAll("&amp;", "&") ?? null,
    };
  };
  const team = () =>
    listMembers(t.ctx.db, "acme")
      .map((member) => `${member.email} ${member.role}`)
      .sort();
  const memberActivity = async () =>
    (await t.call("GET", "/api/v1/activity?entityType=member&limit=100")).body.data.length;

  test("a role change for a member removed meanwhile by another owner is refused as Remove refuses", async () => {
    // Both owners have the Members screen open; Rita removes Bo, then Ola changes Bo's role from her page.
    expect((await rita("/admin/members/remove", { email: "bo@example.com" })).status).toBe(303);
    const before = { team: team(), activity: await memberActivity() };

    const refused = await refusalOf(
      await ola("/admin/members/role", { email: "bo@example.com", role: "admin" }),
    );
    expect(refused.status).toBe(400);
    expect(refused.alert).toBe("bo@example.com is no member of Acme: no role was changed");
    expect(refused.page).toContain(
      "They may have been removed already; open the Members screen again to see the team.",
    );
    expect(refused.page).not.toContain("Invalid");
    expect(refused.page).not.toContain("'email'");
    expect(refused.reopen).toBe("/admin/members?project=acme");
    expect({ team: team(), activity: await memberActivity() }).toEqual(before);
  });

  test("a member removed twice (two pages open): the second Remove says nobody was removed", async () => {
    const before = { team: team(), activity: await memberActivity() };
    const refused = await refusalOf(await ola("/admin/members/remove", { email: "bo@example.com" }));
    expect(refused.status).toBe(400);
    expect(refused.alert).toBe("bo@example.com is no member of Acme: nobody was removed");
    expect(refused.page).not.toContain("Member removed.");
    expect(refused.page).not.toContain("'email'");
    expect(refused.reopen).toBe("/admin/members?project=acme");
    expect({ team: team(), activity: await memberActivity() }).toEqual(before);
  });

  test("an owner removing themselves (a form the page never offers) is refused in a sentence", async () => {
    const before = { team: team(), activity: await memberActivity() };
    const refused = await refusalOf(await rita("/admin/members/remove", { email: "Rita@example.com" }));
    expect(refused.status).toBe(400);
    expect(refused.alert).toBe("You cannot remove yourself from Acme: nobody was removed");
    expect(refused.page).toContain("Another owner can remove you.");
    expect(refused.page).not.toContain("Invalid");
    expect(refused.page).not.toContain("'email'");
    expect({ team: team(), activity: await memberActivity() }).toEqual(before);
  });

  test("an owner who steps down lands on the inbox, told why Members is gone, not on a refusal", async () => {
    const stepped = await ola("/admin/members/role", { email: "ola@example.com", role: "admin" });
    expect(stepped.status).toBe(303);
    const location = stepped.headers.get("location") ?? "";
    const landed = await fetch(`${server.url}${location}`, { headers: { cookie: olaCookie } });
    expect(landed.status).toBe(200);
    const text = textShown(await landed.text());
    expect(text).toContain("Your role was changed: the Members and API keys screens are for owners");
    expect(team()).toEqual(["ola@example.com admin", "rita@example.com owner"]);
  });

  test("the last owner stepping down is refused in a sentence, and stays owner", async () => {
    const before = { team: team(), activity: await memberActivity() };
    const refused = await refusalOf(
      await rita("/admin/members/role", { email: "rita@example.com", role: "member" }),
    );
    expect(refused.status).toBe(400);
    expect(refused.alert).toBe("Acme's last owner cannot step down: no role was changed");
    expect(refused.page).toContain("make another member owner first");
    expect(refused.page).not.toContain("Invalid");
    expect(refused.page).not.toContain("'role'");
    expect(refused.reopen).toBe("/admin/members?project=acme");
    expect({ team: team(), activity: await memberActivity() }).toEqual(before);
  });

  test("the same role again changes nothing and says so", async () => {
    const before = await memberActivity();
    const same = await rita("/admin/members/role", { email: "ola@example.com", role: "admin" });
    expect(same.status).toBe(303);
    expect(same.headers.get("location")).toBe("/admin/members?project=acme&done=unchanged");
    expect(await memberActivity()).toBe(before);
  });
});
