import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { describeInBrowser } from "../support/browser";
import { memberInBrowser } from "../support/dashboard";

// The Import screen says what a CSV import did not do: rows imported before (by their id) and columns it
// did not read (docs/dashboard.md, docs/export-format.md "CSV rows").

const SHEET =
  "ID,Title,Votes,Post URL,Board\ncn-1,Dark mode,3,https://old.example/p/1,Features\ncn-2,Export to PDF,1,,\n";

describeInBrowser("CSV import ids and unread columns on the dashboard, in Chromium", (served) => {
  async function upload(page: Page): Promise<string> {
    await page.goto(`${served().server.url}/admin/import`);
    await page.getByLabel(/A CSV file/).setInputFiles({
      name: "canny.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(SHEET),
    });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.waitForURL(/\/admin\/import\/[0-9a-f-]+/);
    const status = page.locator("[data-import-status]");
    await status.filter({ hasText: "finished" }).waitFor();
    return ((await status.textContent()) ?? "").replace(/\s+/g, " ");
  }

  test("a CSV imported twice: the second says its rows were imported before; unread columns are named", async () => {
    const page = await memberInBrowser(served().browser, served().t, served().server.url, {
      email: "mover@example.com",
      role: "admin",
      name: "Mo Mover",
    });
    expect(await upload(page)).toContain("2 imported, 0 skipped ·");
    const unread = page.locator("[data-unread-columns]");
    expect(await unread.innerText()).toContain("Not read: 2 columns (post url, board)");
    expect(await unread.innerText()).toContain("id, title, description");

    expect(await upload(page)).toContain("0 imported, 2 skipped (2 already imported) · finished");
    // The heading counts in words, whatever the job's state.
    expect(await page.locator("[data-import] h2").innerText()).toBe("Import of 2 rows");
    expect(await page.locator("details[data-skipped]").count()).toBe(0);
    const listed = await served().t.call("GET", "/api/v1/posts?limit=10");
    expect(listed.body.pagination.total).toBe(2);
    await page.close();
  }, 60_000);
});
