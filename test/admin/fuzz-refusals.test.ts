import { expect, test } from "bun:test";
import { keysCommand } from "../../src/cli/project-commands";
import { makePost } from "../support/board";
import { describeSignedIn, postForm } from "../support/dashboard";

// What a fuzz audit of the dashboard found (docs/dashboard.md): forms a member can send that the dashboard
// kept, stored or misread.
describeSignedIn(
  "the dashboard refuses what it cannot use",
  {
    email: "fuzz@example.com",
    role: "owner",
    name: "Fuzz",
  },
  (session) => {
    const send = (path: string, fields: Record<string, string>) =>
      postForm(
        `${session().url}${path}`,
        { csrf: session().csrf, project: "acme", ...fields },
        session().cookie,
      );
    const alertOf = async (response: Response) =>
      /role="alert"[^>]*>([^<]*)</.exec(await response.text())?.[1] ?? "";

    test("a form id not of the shape the dashboard gives is refused and changes nothing", async () => {
      const post = await makePost(session().t, { title: "Huge ids", status: "APPROVED" });
      const huge = "a".repeat(100_000);
      const refused = await send(`/admin/posts/${post.id}/status`, { status: "IN_PROGRESS", once: huge });
      expect(refused.status).toBe(400);
      expect(await alertOf(refused)).toBe("This form could not be read: nothing was changed");
      for (const once of ["not a uuid!", "x".repeat(65), "<script>"]) {
        expect((await send(`/admin/posts/${post.id}/status`, { status: "IN_PROGRESS", once })).status).toBe(
          400,
        );
      }
      expect((await session().t.call("GET", `/api/v1/posts/${post.id}`)).body.data.status).toBe("APPROVED");
      // The ids the dashboard gives still work, once.
      const once = crypto.randomUUID();
      expect((await send(`/admin/posts/${post.id}/status`, { status: "IN_PROGRESS", once })).status).toBe(
        303,
      );
      expect((await send(`/admin/posts/${post.id}/status`, { status: "COMPLETE", once })).status).toBe(409);
    });

    test("an API key name with control characters is refused, on the dashboard and on the command line", async () => {
      for (const name of [
        "CI\nsk_forged\tsecret",
        "bell\u0007",
        "nul\u0000",
        "esc\u001b[31m",
        "del\u007f",
        "c1\u0085",
      ]) {
        const refused = await send("/admin/keys", { kind: "secret", name, once: crypto.randomUUID() });
        expect(refused.status).toBe(400);
        expect(await alertOf(refused)).toContain(
          "Invalid “Name (optional: what uses it, such as “Zapier” or “CI”)”: must not contain control characters",
        );
        expect(() =>
          keysCommand(
            ["create", "--project", "acme", "--kind", "secret", "--name", name],
            session().t.ctx.db,
            () => {},
          ),
        ).toThrow("must not contain control characters");
      }
      const printed: string[] = [];
      keysCommand(
        ["list", "--project", "acme", "--json"],
        session().t.ctx.db,
        (line) => void printed.push(line),
      );
      const names = (JSON.parse(printed[0]!) as { name: string | null }[]).map((key) => key.name);
      expect(names.some((name) => name !== null && /\p{Cc}/u.test(name))).toBe(false);
      // A name with ordinary punctuation and letters of any script is kept.
      const kept = await send("/admin/keys", {
        kind: "secret",
        name: "Zapier — prod (é)",
        once: crypto.randomUUID(),
      });
      expect(kept.status).toBe(200);
    });

    async function importFile(content: string, name: string) {
      const upload = new FormData();
      upload.set("csrf", session().csrf);
      upload.set("project", "acme");
      upload.set("once", crypto.randomUUID());
      upload.set("file", new Blob([content]), name);
      return fetch(`${session().url}/admin/import`, {
        method: "POST",
        body: upload,
        headers: { cookie: session().cookie },
        redirect: "manual",
      });
    }

    test("a board export saved as an array is read as a board export, not as a CSV of no rows", async () => {
      await makePost(session().t, { title: "Exported request", status: "APPROVED" });
      const exported = (await session().t.call("GET", "/api/v1/export")).body.data;
      for (const content of [JSON.stringify([exported]), `\uFEFF  ${JSON.stringify([exported])}`]) {
        const imported = await importFile(content, "export.json");
        // Read whole at once (a CSV would start a job and redirect to it); into its own project, all is there.
        expect(imported.status).toBe(200);
        // As the page reads: its source breaks lines where a browser shows one space.
        expect((await imported.text()).replace(/\s+/g, " ")).toMatch(/Imported 0, skipped [1-9]/);
      }
    });

    test("an empty file or a CSV of its header alone says there are no rows", async () => {
      // The last: a header alone whose quoted cell holds a line break (two lines, no row).
      for (const content of [
        "",
        "  \n",
        "\uFEFF",
        "title,description\n",
        "title\r\n\r\n",
        '"title of\nthe request",description\n',
      ]) {
        const refused = await importFile(content, "requests.csv");
        expect({ content, status: refused.status }).toEqual({ content, status: 400 });
        expect(await alertOf(refused)).toBe("No rows found in the file");
      }
      // A CSV with a row still starts its job.
      expect((await importFile("title\nFrom a CSV", "requests.csv")).status).toBe(303);
    });

    test("a message to subscribers over 5,000 characters is refused naming the form's field by its label", async () => {
      const post = await makePost(session().t, { title: "Long message", status: "APPROVED" });
      const refused = await send(`/admin/posts/${post.id}/status`, {
        status: "IN_PROGRESS",
        message: "x".repeat(5001),
        once: crypto.randomUUID(),
      });
      expect(refused.status).toBe(400);
      expect(await alertOf(refused)).toBe(
        "Invalid “Message to subscribers (optional)”: must be at most 5000 characters",
      );
      expect((await session().t.call("GET", `/api/v1/posts/${post.id}`)).body.data.status).toBe("APPROVED");
    });
  },
);
