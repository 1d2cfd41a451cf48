import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { createTestApp, type TestApp } from "../support/app";
import { listen } from "../support/board";
import { describeInBrowser } from "../support/browser";
import { csrfOf, memberInBrowser, memberOverHttp } from "../support/dashboard";

// The Import screen lists the columns a CSV import reads and offers a template CSV, both from the import's
// own column description (src/imports/schema.ts, CSV_COLUMNS; docs/export-format.md "CSV rows"). The
// template imported back is the test that fails if the template and the import's reader drift apart.

const COLUMNS = "id,title,description,status,votes,tags,author_email,author_name,created_at,comments";

describe("the dashboard's CSV import template over HTTP", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  beforeAll(() => {
    t = createTestApp();
    server = listen(t);
  });
  afterAll(async () => {
    await server.stop();
    t.close();
  });

  const member = async (email: string, role: "owner" | "admin" | "member"): Promise<string> =>
    (await memberOverHttp(t, server.url, { email, role })).cookie;

  const get = (path: string, cookie?: string) =>
    fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });

  test("the template downloads as a CSV attachment, and imported back it creates its example rows with no row errors", async () => {
    const cookie = await member("importer@example.com", "admin");
    const response = await get("/admin/import/template?project=acme", cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="featureboard-import-template.csv"',
    );
    const template = await response.text();
    expect(template.split("\r\n")[0]).toBe(COLUMNS);

    // Uploaded back through the Import screen, as a member who saved it would.
    const upload = new FormData();
    upload.set("csrf", await csrfOf(server.url, cookie));
    upload.set("project", "acme");
    upload.set("file", new Blob([template], { type: "text/csv" }), "featureboard-import-template.csv");
    const started = await fetch(`${server.url}/admin/import`, {
      method: "POST",
      body: upload,
      headers: { cookie },
      redirect: "manual",
    });
    expect(started.status).toBe(303);
    const jobPath = started.headers.get("location") ?? "";
    expect(jobPath).toMatch(/^\/admin\/import\/[0-9a-f-]+\?project=acme$/);
    const [path, query] = jobPath.split("?");
    let progress: { state: string; imported: number; skipped: number; errors?: unknown[] } = {
      state: "running",
      imported: 0,
      skipped: 0,
    };
    for (let tries = 0; progress.state === "running" && tries < 300; tries++) {
      await Bun.sleep(20);
      progress = await (await get(`${path}/progress?${query}`, cookie)).json();
    }
    expect(progress).toMatchObject({ state: "finished", imported: 2, skipped: 0, errors: [] });

    // Every example cell was read as meant, not ignored.
    const listed = await t.call("GET", "/api/v1/posts?limit=10");
    const posts: {
      id: string;
      title: string;
      status: string;
      voteCount: number;
      description: string | null;
      createdAt: string;
      createdByBoardUserId: string | null;
    }[] = listed.body.data;
    const byTitle = new Map(posts.map((post) => [post.title, post]));
    expect(byTitle.get("Dark mode")).toMatchObject({ status: "APPROVED", voteCount: 12 });
    expect(byTitle.get("Dark mode")?.description).toContain("dark theme");
    expect(byTitle.get("Export requests to PDF")).toMatchObject({ status: "IN_PROGRESS", voteCount: 3 });
    expect(byTitle.get("Dark mode")?.createdAt).toBe("2024-05-01T10:00:00.000Z");
    expect(byTitle.get("Dark mode")?.createdByBoardUserId).not.toBeNull();
    const comments = await t.call("GET", `/api/v1/posts/${byTitle.get("Dark mode")?.id}/comments`);
    expect(comments.body.data).toHaveLength(2);
    const tags = await t.call("GET", "/api/v1/tags");
    expect(tags.body.data.map((tag: { label: string }) => tag.label).sort()).toEqual([
      "Export",
      "Themes",
      "UI",
    ]);

    // The API reads the same template: no column of it is unread, and its ids make a second import a no-op.
    const again = await t.call("POST", "/api/v1/import", { body: { csv: template } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      imported: 0,
      alreadyImported: 2,
      errors: [],
      unreadColumns: [],
    });
  }, 30_000);

  test("the template is refused as the Import screen is: signed out to the sign-in page, a member 403", async () => {
    const page = await get("/admin/import?project=acme");
    const template = await get("/admin/import/template?project=acme");
    expect(page.status).toBe(303);
    expect(template.status).toBe(303);
    expect(template.headers.get("location")).toBe(
      `/admin/login?next=${encodeURIComponent("/admin/import/template?project=acme")}`,
    );
    expect(await template.text()).not.toContain("title");

    const cookie = await member("plain-member@example.com", "member");
    expect((await get("/admin/import?project=acme", cookie)).status).toBe(403);
    const refused = await get("/admin/import/template?project=acme", cookie);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-disposition")).toBeNull();
  }, 30_000);
});

describeInBrowser("the Import screen's columns and template, in Chromium", (served) => {
  test("the screen lists each column with whether it is required and what it takes; its template downloads and imports", async () => {
    const page = await memberInBrowser(served().browser, served().t, served().server.url, {
      email: "lister@example.com",
      role: "admin",
      name: "Lee Lister",
    });
    await page.goto(`${served().server.url}/admin/import`);
    const table = page.getByRole("region", { name: "Columns of a CSV" }).getByRole("table");
    const headings = await table.getByRole("columnheader").allInnerTexts();
    expect(headings).toEqual(["Column", "Required", "Accepts"]);
    const rows = table.locator("tbody tr");
    expect((await rows.locator("td:first-child").allInnerTexts()).join(",")).toBe(COLUMNS);
    const row = (name: string) => table.locator(`tr[data-column="${name}"] td`);
    expect(await row("title").allInnerTexts()).toEqual(["title", "Required", "Text, up to 200 characters"]);
    expect(await row("status").nth(1).innerText()).toBe("Optional");
    expect(await row("status").nth(2).innerText()).toContain("Planned");
    expect(await row("votes").nth(2).innerText()).toContain("0 to 10,000");
    expect(await row("created_at").nth(2).innerText()).toContain("ISO 8601");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download a template" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("featureboard-import-template.csv");
    const saved = await download.path();
    const text = await readFile(saved, "utf8");
    expect(text.split("\r\n")[0]).toBe(COLUMNS);

    await page.getByLabel(/A CSV file/).setInputFiles(saved);
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.waitForURL(/\/admin\/import\/[0-9a-f-]+/);
    const status = page.locator("[data-import-status]");
    await status.filter({ hasText: "finished" }).waitFor();
    expect(((await status.textContent()) ?? "").replace(/\s+/g, " ")).toContain("2 imported, 0 skipped ·");
    expect(await page.locator("[data-unread-columns]").count()).toBe(0);
    await page.close();
  }, 60_000);
});
