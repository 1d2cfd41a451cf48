import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { describeInBrowser } from "../support/browser";
import type { JsonBody } from "../support/app";
import { makePost } from "../support/board";
import {
  acceptDialog,
  csrfOf,
  importCsvAndWatch,
  memberInInbox,
  postForm,
  sessionCookieOf,
} from "../support/dashboard";
import { commitNow } from "../../src/db/connection";
import { inviteMember, signOutEverywhere } from "../../src/team/service";

// What an audit of the dashboard in Chromium found: what was typed in a refused form lost on the way back,
// the reasons of skipped import rows shown only after a reload, closing requests without asking, a form sent
// signed out lost without a word, removing a non-member answered "Member removed.", the inbox counting 50
// of 61 pending requests.

describeInBrowser("the dashboard in Chromium, after its audit", (served) => {
  const app = () => served().t;
  const base = () => served().server.url;

  let members = 0;
  const signedIn = (role: "owner" | "admin" | "member" = "admin"): Promise<Page> => {
    members += 1;
    return memberInInbox(served().browser, app(), base(), {
      email: `audited${members}@example.com`,
      name: `Audited ${members}`,
      role,
    });
  };

  /** Sends the form, sees it refused, goes "Back to the form" (history, in dashboard.js) and reads `field`. */
  async function typedAfterBack(page: Page, send: () => Promise<void>, field: string): Promise<string> {
    await send();
    await page.getByRole("link", { name: "Back to the form" }).click();
    const input = page.locator(field);
    await input.waitFor();
    return input.inputValue();
  }

  test("a refused integration names the field by the label the form shows, not by the API's name", async () => {
    const page = await signedIn();
    const refusal = async (kind: string, label: string) => {
      await page.goto(`${base()}/admin/integrations?project=acme`);
      const card = page.locator(`[data-integration="${kind}"]`);
      await card.getByLabel(label).fill("not a url");
      await card.getByRole("button", { name: "Save" }).click();
      return page.getByRole("alert").textContent();
    };
    // One API field, `webhookUrl`, under two labels: each card's own.
    expect(await refusal("team-chat", "Incoming-webhook URL")).toBe(
      "Invalid “Incoming-webhook URL”: URL must be an absolute URL",
    );
    expect(await refusal("community-chat", "Channel webhook URL")).toBe(
      "Invalid “Channel webhook URL”: URL must be an absolute URL",
    );
    // The API answers as before, with its own field names.
    const api = await app().call("PUT", "/api/v1/integrations/team-chat", {
      body: { webhookUrl: "not a url", enabled: true },
    });
    expect(api.status).toBe(400);
    expect(api.text).toContain("Invalid 'webhookUrl'");
    await page.context().close();
  }, 60_000);

  test("a refused integration or new-request form keeps what was typed after Back to the form", async () => {
    const page = await signedIn();
    await page.goto(`${base()}/admin/integrations?project=acme`);

    // The chat's webhook URL is a secret (a password field, which no browser brings back); the rest is kept.
    const teamChat = page.locator('[data-integration="team-chat"]');
    await teamChat.getByLabel("Incoming-webhook URL").fill("http://chat.example.com/not-https");
    await teamChat.getByLabel("Channel (optional)").fill("#product");
    expect(
      await typedAfterBack(
        page,
        () => teamChat.getByRole("button", { name: "Save" }).click(),
        "#team-chat-channel",
      ),
    ).toBe("#product");

    const code = page.locator('[data-integration="code-host"]');
    await code.getByLabel("Owner").fill("acme");
    await code.getByLabel("Repository").fill("not a repository name!");
    expect(
      await typedAfterBack(
        page,
        () => code.getByRole("button", { name: "Save" }).click(),
        "#code-host-repoName",
      ),
    ).toBe("not a repository name!");
    expect(await page.locator("#code-host-repoOwner").inputValue()).toBe("acme");
    // A secret is never the member's own password for the browser to fill in.
    expect(await page.locator("#code-host-accessToken").getAttribute("autocomplete")).toBe("new-password");

    await page.goto(`${base()}/admin/requests/new?project=acme`);
    await page.getByLabel("Title").fill("Typed on a sales call");
    await page.getByLabel(/^Their email/).fill("customer@bigco.example");
    await page.getByLabel("Description").fill("x".repeat(10_001));
    expect(
      await typedAfterBack(
        page,
        () => page.getByRole("button", { name: "Create the request" }).click(),
        "#new-email",
      ),
    ).toBe("customer@bigco.example");
    await page.context().close();
  }, 60_000);

  test("an import watched to its end shows why rows were skipped, open when they are few, without a reload", async () => {
    const page = await signedIn();
    await page.goto(`${base()}/admin/import?project=acme`);
    const lines = ["title,description,status,votes,tags"];
    for (let row = 1; row <= 4_000; row++) {
      lines.push([1_000, 2_000, 3_000].includes(row) ? ",no title,APPROVED,0," : `Row ${row},,APPROVED,0,`);
    }
    await importCsvAndWatch(page, lines);
    expect(await page.locator("[data-import-status]").textContent()).toContain("3997 imported, 3 skipped");
    const skipped = page.locator("[data-skipped]");
    expect(await skipped.getAttribute("open")).not.toBeNull();
    expect(await skipped.getByRole("listitem").allInnerTexts()).toEqual([
      expect.stringMatching(/^Row 1000 \(line 1001 of the file\): /),
      expect.stringMatching(/^Row 2000 \(line 2001 of the file\): /),
      expect.stringMatching(/^Row 3000 \(line 3001 of the file\): /),
    ]);
    // A reload lists the same rows, open too.
    await page.reload();
    expect(await page.locator("[data-skipped]").getAttribute("open")).not.toBeNull();
    expect(await page.locator("[data-skipped] li").count()).toBe(3);
    await page.context().close();
  }, 90_000);

  test("closing requests asks first, in the table and on a request's page; no closes nothing", async () => {
    const first = await makePost(app(), { title: "Close me maybe", status: "APPROVED" });
    const second = await makePost(app(), { title: "Close me too", status: "APPROVED" });
    const page = await signedIn("member");
    const questions: string[] = [];
    let answer = false;
    page.off("dialog", acceptDialog);
    page.on("dialog", (dialog) => {
      questions.push(dialog.message());
      void (answer ? dialog.accept() : dialog.dismiss());
    });
    const statusOf = async (post: JsonBody) =>
      (await app().call("GET", `/api/v1/posts/${post.id}`)).body.data.status;

    await page.goto(`${base()}/admin/requests?project=acme`);
    await page.getByLabel("Select Close me maybe").check();
    await page.getByLabel("Select Close me too").check();
    await page.getByLabel("Set the selected to").selectOption("CLOSED");
    await page.getByRole("button", { name: "Change status" }).click();
    expect(questions).toEqual(["Close the selected requests? They leave the board and its roadmap."]);
    expect([await statusOf(first), await statusOf(second)]).toEqual(["APPROVED", "APPROVED"]);
    // Another status goes through unasked.
    await page.getByLabel("Set the selected to").selectOption("IN_PROGRESS");
    await page.getByRole("button", { name: "Change status" }).click();
    await page.getByText("Statuses changed.").waitFor();
    expect(questions.length).toBe(1);

    await page.goto(`${base()}/admin/posts/${first.id}?project=acme`);
    await page.getByLabel("Status", { exact: true }).selectOption("CLOSED");
    await page.getByRole("button", { name: "Change status" }).click();
    expect(questions[1]).toBe("Close “Close me maybe”? It leaves the board and its roadmap.");
    expect(await statusOf(first)).toBe("IN_PROGRESS");
    answer = true;
    await page.getByRole("button", { name: "Change status" }).click();
    await page.getByText("Status changed.").waitFor();
    expect(await statusOf(first)).toBe("CLOSED");
    await page.context().close();
  }, 60_000);

  test("a form sent after the session ended says the change was not saved and signs in back to its page", async () => {
    const post = await makePost(app(), { title: "Answer me later", status: "APPROVED" });
    const page = await signedIn();
    await page.goto(`${base()}/admin/posts/${post.id}?project=acme`);
    await page.getByLabel("Write").fill("Typed while the session ran out.");
    // The session ends meanwhile (it expired; here: signed out everywhere).
    const member = app()
      .ctx.db.query<{ id: string }, [string]>("SELECT id FROM team_members WHERE email = ?")
      .get(`audited${members}@example.com`)!;
    signOutEverywhere(app().ctx.db, member.id);
    commitNow(app().ctx.db);
    await page.getByRole("button", { name: "Post official reply" }).click();
    await page.getByRole("heading", { name: "Sign in to the team dashboard" }).waitFor();
    expect(await page.getByRole("status").textContent()).toContain(
      "You were signed out; your change was not saved. Sign in and send it again.",
    );
    expect((await app().call("GET", `/api/v1/posts/${post.id}/comments`)).body.data).toEqual([]);
    await page.getByLabel("Email").first().fill(`audited${members}@example.com`);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Answer me later" }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/posts/${post.id}`);
    await page.context().close();
  }, 60_000);

  test("signed out, a form's next page is its own /admin Referer only: never another site or a board page", async () => {
    const send = (referer: string) =>
      fetch(`${base()}/admin/posts/x/status`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", referer },
        body: "status=CLOSED",
      });
    const here = await send(`${base()}/admin/requests?project=acme&page=2`);
    expect(here.status).toBe(303);
    const location = new URL(here.headers.get("location") ?? "", base());
    expect(location.pathname).toBe("/admin/login");
    expect(location.searchParams.get("done")).toBe("signedOut");
    expect(location.searchParams.get("next")).toBe("/admin/requests?project=acme&page=2");
    for (const elsewhere of ["https://evil.example/admin/requests", `${base()}/b/acme`]) {
      const answer = new URL((await send(elsewhere)).headers.get("location") ?? "", base());
      expect(answer.pathname).toBe("/admin/login");
      expect(answer.searchParams.get("next")).toBeNull();
    }
  });

  test("removing an email that is no member is refused in words, as Change and Withdraw are", async () => {
    const { token } = inviteMember(app().ctx.db, {
      email: "remover@example.com",
      role: "owner",
      projectSlug: "acme",
    });
    const cookie = sessionCookieOf(
      await postForm(`${base()}/admin/invite/${token}`, { password: "a long enough password" }),
    );
    const csrf = await csrfOf(base(), cookie);
    const refused = await postForm(
      `${base()}/admin/members/remove`,
      { csrf, project: "acme", email: "stranger@example.com" },
      cookie,
    );
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(text).toContain("stranger@example.com is no member of Acme: nobody was removed");
    expect(text).not.toContain("Member removed.");
  });

  test("the inbox counts every pending request, not the 50 it lists, and links to the rest", async () => {
    for (let index = 1; index <= 53; index++) await makePost(app(), { title: `Pending ${index}` });
    const pending = (await app().call("GET", "/api/v1/posts?status=PENDING&limit=1")).body.pagination.total;
    expect(pending).toBeGreaterThan(50);
    const page = await signedIn("member");
    const heading = page.getByRole("heading", { name: /^Waiting for review/ });
    expect((await heading.textContent())?.replace(/\s+/g, " ").trim()).toBe(`Waiting for review ${pending}`);
    expect(await page.locator("ul.cards").first().locator("> li").count()).toBe(50);
    await page
      .getByRole("link", { name: `all ${pending} pending requests are in the requests table` })
      .click();
    await page.getByRole("heading", { name: "Requests" }).waitFor();
    expect(await page.getByLabel("Status", { exact: true }).inputValue()).toBe("PENDING");
    expect(await page.getByText(`${pending} requests`, { exact: true }).count()).toBe(1);
    await page.context().close();
  }, 60_000);

  test("removing an integration says it was removed, not that changes were saved", async () => {
    const page = await signedIn();
    await page.goto(`${base()}/admin/integrations?project=acme`);
    const payments = page.locator('[data-integration="payments"]');
    await payments.getByLabel("Secret or restricted API key").fill("sk_test_audit0000000000000000abcd");
    await payments.getByRole("button", { name: "Save" }).click();
    await page.getByText("Changes saved.").waitFor();
    await page.locator('[data-integration="payments"]').getByRole("button", { name: "Remove" }).click();
    await page.getByText("Integration removed: its settings are deleted.").waitFor();
    expect(await page.getByText("Changes saved.").count()).toBe(0);
    await page.context().close();
  }, 60_000);
});
