import { expect, test } from "bun:test";
import { makePost, makeTag, makeUser } from "../support/board";
import { describeSignedIn, postForm, textShown } from "../support/dashboard";

// A refused dashboard form names the field by the label its form shows, not by the API's name
// (docs/dashboard.md, "Sessions and forms"): each form sent as a browser sends it, with what passes the
// browser's own checks (text of spaces passes `required`, a number field's text is sent as typed).
describeSignedIn(
  "a refused dashboard form names the field as its form labels it",
  {
    email: "labels@example.com",
    role: "owner",
    name: "Lab",
  },
  (session) => {
    const alertOf = async (response: Response) =>
      textShown(/role="alert"[^>]*>([^<]*)</.exec(await response.text())?.[1] ?? "");
    const pageText = async (path: string) =>
      textShown(
        await (await fetch(`${session().url}${path}`, { headers: { cookie: session().cookie } })).text(),
      );
    const send = (path: string, fields: Record<string, string>) =>
      postForm(
        `${session().url}${path}`,
        { csrf: session().csrf, project: "acme", once: crypto.randomUUID(), ...fields },
        session().cookie,
      );
    async function upload(path: string, field: string, content: string, name: string) {
      const form = new FormData();
      form.set("csrf", session().csrf);
      form.set("project", "acme");
      form.set("once", crypto.randomUUID());
      form.set(field, new Blob([content]), name);
      return fetch(`${session().url}${path}`, {
        method: "POST",
        body: form,
        headers: { cookie: session().cookie },
        redirect: "manual",
      });
    }

    /**
     * The form's page shows `label`, and the refusal names it (and not the API's `field`), saying `problem`.
     */
    async function refusedAs(
      formPage: string,
      refused: Promise<Response>,
      expected: { label: string; field: string; problem: string },
    ) {
      expect(await pageText(formPage)).toContain(expected.label);
      const response = await refused;
      expect(response.status).toBe(400);
      const alert = await alertOf(response);
      expect(alert).toBe(`Invalid “${expected.label}”: ${expected.problem}`);
      expect(alert).not.toContain(`'${expected.field}'`);
    }

    test("the request page: a reply, a vote, the status message and the edit", async () => {
      const post = await makePost(session().t, { title: "Dark mode", status: "APPROVED" });
      const page = `/admin/posts/${post.id}?project=acme`;
      await refusedAs(page, send(`/admin/posts/${post.id}/comments`, { kind: "reply", body: "   " }), {
        label: "Write",
        field: "body",
        problem: "must not be blank",
      });
      await refusedAs(page, send(`/admin/posts/${post.id}/votes`, { email: "   " }), {
        label: "Add a vote for a customer (their email)",
        field: "email",
        problem: "must be an email address",
      });
      await refusedAs(
        page,
        send(`/admin/posts/${post.id}/status`, { status: "IN_PROGRESS", message: "x".repeat(5001) }),
        {
          label: "Message to subscribers (optional)",
          field: "message",
          problem: "must be at most 5000 characters",
        },
      );
      await refusedAs(
        page,
        send(`/admin/posts/${post.id}/edit`, { title: "Dark mode", description: "x".repeat(10_001) }),
        {
          label: "Description",
          field: "description",
          problem: "must be at most 10000 characters",
        },
      );
      // Nothing was changed by the refused forms.
      const after = (await session().t.call("GET", `/api/v1/posts/${post.id}`)).body.data;
      expect({ status: after.status, voteCount: after.voteCount, description: after.description }).toEqual({
        status: "APPROVED",
        voteCount: 0,
        description: null,
      });
    });

    test("the requests table: a change with no request ticked says so, naming no API field", async () => {
      await makePost(session().t, { title: "Bulk me", status: "APPROVED" });
      const refused = await send("/admin/requests/status", { status: "COMPLETE" });
      expect(refused.status).toBe(400);
      const alert = await alertOf(refused);
      expect(alert).toBe("No request was selected: nothing was changed");
    });

    test("a new request, a corrected reply and a customer's monthly spend", async () => {
      await refusedAs("/admin/requests/new?project=acme", send("/admin/requests/new", { title: "   " }), {
        label: "Title",
        field: "title",
        problem: "must not be blank",
      });
      await refusedAs(
        "/admin/requests/new?project=acme",
        send("/admin/requests/new", { title: "For a customer", email: "not an email" }),
        {
          label: "Their email: they are the request's author and get its updates",
          field: "email",
          problem: "must be an email address",
        },
      );
      const post = await makePost(session().t, { title: "Replied", status: "APPROVED" });
      const comment = (
        await session().t.call("POST", `/api/v1/posts/${post.id}/comments`, {
          body: { body: "A first text" },
        })
      ).body.data;
      await refusedAs(
        `/admin/posts/${post.id}/comments/${comment.id}?project=acme`,
        send(`/admin/posts/${post.id}/comments/${comment.id}`, { body: "   " }),
        { label: "Text", field: "body", problem: "must not be blank" },
      );
      const user = await makeUser(session().t, { email: "spender@example.com", name: "Sam Spender" });
      await refusedAs(
        `/admin/users/${user.id}?project=acme`,
        send(`/admin/users/${user.id}`, { userSpend: "lots" }),
        {
          label: "Monthly spend (in the payments account's currency, such as 49.90)",
          field: "userSpend",
          problem: "must be a number",
        },
      );
    });

    test("the Tags screen: a new tag and a tag's row", async () => {
      await refusedAs("/admin/tags?project=acme", send("/admin/tags", { label: "   ", theme: "#4338ca" }), {
        label: "Label",
        field: "label",
        problem: "must not be blank",
      });
      const tag = await makeTag(session().t, "Mobile");
      await refusedAs(
        "/admin/tags?project=acme",
        send(`/admin/tags/${tag.id}`, { label: "   ", theme: "#4338ca" }),
        {
          label: "Label",
          field: "label",
          problem: "must not be blank",
        },
      );
    });

    test("the changelog's release editor", async () => {
      await refusedAs(
        "/admin/releases?project=acme",
        send("/admin/releases", { title: "March", content: "x".repeat(100_001), publish: "no" }),
        { label: "Notes (markdown)", field: "content", problem: "must be at most 100000 characters" },
      );
      await refusedAs(
        "/admin/releases?project=acme",
        send("/admin/releases", { title: "March", label: "v".repeat(51), publish: "no" }),
        { label: "Version label (optional)", field: "label", problem: "must be at most 50 characters" },
      );
      expect((await session().t.call("GET", "/api/v1/releases")).body.data).toEqual([]);
      // A release's own page: the same editor, the same labels.
      const draft = (
        await session().t.call("POST", "/api/v1/releases", { body: { title: "April", isDraft: true } })
      ).body.data;
      await refusedAs(
        `/admin/releases/${draft.id}?project=acme`,
        send(`/admin/releases/${draft.id}`, { title: "   ", publish: "no" }),
        { label: "Title", field: "title", problem: "must not be blank" },
      );
    });

    test("the AI screen's forms", async () => {
      await refusedAs("/admin/ai?project=acme", send("/admin/ai/triage", { limit: "a few" }), {
        label: "Pending requests to triage, oldest first (at most 100)",
        field: "limit",
        problem: "must be an integer",
      });
      await refusedAs(
        "/admin/ai?project=acme",
        send("/admin/ai/sprint-plan", { capacity: "500", strategy: "balanced" }),
        {
          label: "Capacity: requests to plan (at most 50)",
          field: "capacity",
          problem: "must be at most 50",
        },
      );
    });

    test("the AI screen's summary, sent with a period it does not offer", async () => {
      await refusedAs("/admin/ai?project=acme", send("/admin/ai/summary", { period: "decade" }), {
        label: "Period",
        field: "period",
        problem: "must be one of week, month, quarter",
      });
    });

    test("the Settings screen: the project's name, its accent colour and its logo", async () => {
      await refusedAs(
        "/admin/settings?project=acme",
        send("/admin/settings", { name: "   ", isPublic: "true" }),
        {
          label: "Name (shown on the board, the widget and emails)",
          field: "name",
          problem: "must be 1 to 100 characters",
        },
      );
      await refusedAs(
        "/admin/settings?project=acme",
        send("/admin/settings", { name: "Acme", accentColor: "red" }),
        {
          label: "Accent colour",
          field: "accentColor",
          problem: "must be a colour written #rrggbb",
        },
      );
      await refusedAs(
        "/admin/settings?project=acme",
        upload("/admin/settings/logo", "logo", "", "logo.png"),
        {
          label: "A PNG, JPEG, WebP or GIF image, at most 256 KB",
          field: "logo",
          problem: "is empty",
        },
      );
    });

    test("the Members and API keys screens", async () => {
      await refusedAs(
        "/admin/members?project=acme",
        send("/admin/members/invite", { email: "   ", role: "member" }),
        {
          label: "Email",
          field: "email",
          problem: "must be an email address",
        },
      );
      await refusedAs(
        "/admin/keys?project=acme",
        send("/admin/keys", { kind: "secret", name: "CI\tbuild" }),
        {
          label: "Name (optional: what uses it, such as “Zapier” or “CI”)",
          field: "name",
          problem: "must not contain control characters (line breaks, tabs and the like)",
        },
      );
      const prefix = session().t.project.secretKey.slice(0, 11);
      await refusedAs("/admin/keys?project=acme", send("/admin/keys/rename", { prefix, name: "CI\tbuild" }), {
        label: "Name",
        field: "name",
        problem: "must not contain control characters (line breaks, tabs and the like)",
      });
    });

    test("the Import screen: a file that is neither a board export nor a CSV it can read", async () => {
      const label =
        "A CSV file (title, description, status, votes, tags, author_email, …) or a board export (.json)";
      await refusedAs(
        "/admin/import?project=acme",
        upload("/admin/import", "file", "{not json", "export.json"),
        {
          label,
          field: "file",
          problem: "is not valid JSON (a board export) nor CSV",
        },
      );
      // A CSV it cannot parse: the import names its text `csv`, which is the file here.
      await refusedAs(
        "/admin/import?project=acme",
        upload("/admin/import", "file", 'title\n"never closed', "requests.csv"),
        { label, field: "csv", problem: "line 2: a quoted field is never closed" },
      );
    });

    test("the Import screen: a JSON file that is no board export of this version is refused in a person's words", async () => {
      const label =
        "A CSV file (title, description, status, votes, tags, author_email, …) or a board export (.json)";
      const refusal =
        "This file is not a featureboard board export (or is one from a newer version): export it again with “Download the lossless export” on this screen (or GET /api/v1/export) and import that file.";
      const exported = (await session().t.call("GET", "/api/v1/export")).body.data;
      for (const document of [
        { format: "other", version: 1 },
        { ...exported, version: 2 },
        [exported, exported],
        [],
      ]) {
        const response = await upload("/admin/import", "file", JSON.stringify(document), "export.json");
        expect(response.status).toBe(400);
        const alert = await alertOf(response);
        expect(alert).toBe(refusal);
        expect(alert).not.toContain(label);
      }
      // Nothing was imported, and the API keeps its own words for the same document.
      expect((await session().t.call("GET", "/api/v1/activity?entityType=import")).body.data).toEqual([]);
      const api = await session().t.call("POST", "/api/v1/import", {
        body: { source: "board-export", data: { format: "other", version: 1 } },
      });
      expect(api.status).toBe(400);
      expect(api.body.message).toBe(
        "Invalid 'data': must have format 'featureboard.board-export' and version 1",
      );
      // An array of rows is no board export: still imported as rows, as before.
      const rows = await upload(
        "/admin/import",
        "file",
        JSON.stringify([{ title: "From JSON rows" }]),
        "rows.json",
      );
      expect(rows.status).toBe(200);
      expect(await alertOf(rows)).toBe("");
    });
  },
);
