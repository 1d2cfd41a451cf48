import { expect, test } from "bun:test";
import { describeInBrowser } from "../support/browser";
import { importCsvAndWatch, memberInBrowser } from "../support/dashboard";

// The Import screen for whoever cannot see the bar move, and on a phone (docs/dashboard.md, Import).
describeInBrowser("the Import screen in Chromium", (served) => {
  test("the status line a running import rewrites is a live region, and its last words are the import's result", async () => {
    const { browser, t, server } = served();
    const page = await memberInBrowser(browser, t, server.url, {
      email: "listener@example.com",
      role: "admin",
      name: "Lin Listener",
    });
    // Every element of the job's card whose words are replaced (not added to) while the page watches it.
    await page.addInitScript(() => {
      new MutationObserver((records) => {
        for (const record of records) {
          const replaced =
            record.type === "characterData" ||
            [...record.removedNodes].some((node) => (node.textContent ?? "").trim() !== "");
          const element = record.type === "characterData" ? record.target.parentElement : record.target;
          if (replaced && element instanceof Element && element.closest("[data-import]")) {
            element.setAttribute("data-rewritten", "");
          }
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto(`${server.url}/admin/import`);
    const lines = ["title,description,status,votes,tags"];
    for (let row = 1; row <= 4_000; row++) {
      // Row 15's description spans three lines of the file, so row 20 starts on line 23, not 21.
      if (row === 15) lines.push(`Heard 15,"Steps:\n1. open\n2. close",APPROVED,0,`);
      else lines.push([10, 20].includes(row) ? ",no title,APPROVED,0," : `Heard ${row},,APPROVED,0,`);
    }
    await importCsvAndWatch(page, lines);

    // One live region on the page, and it is the element the script rewrote: not a card re-rendered whole.
    const status = page.getByRole("status");
    expect(await status.count()).toBe(1);
    expect(await page.locator("[data-rewritten]").count()).toBe(1);
    expect(await status.evaluate((element) => element.hasAttribute("data-rewritten"))).toBe(true);
    expect((await status.innerText()).trim()).toMatch(/· 3998 imported, 2 skipped · finished$/);

    // A skipped CSV row is named by its data row and by the line of the file it starts on (the header is
    // line 1; a cell with line breaks before it moves it down), listed by the script when the job ends
    // and by the page on a reload, in the same words.
    const skipped = async () =>
      (await page.locator("[data-skipped]").getByRole("listitem").allInnerTexts()).map((text) => text.trim());
    const watched = await skipped();
    expect(watched).toEqual([
      expect.stringMatching(/^Row 10 \(line 11 of the file\): \S/),
      expect.stringMatching(/^Row 20 \(line 23 of the file\): \S/),
    ]);
    await page.reload();
    expect(await skipped()).toEqual(watched);
    await page.context().close();
  }, 90_000);

  test("on a phone the CSV columns read as entries, each name with what it accepts under it, and nothing scrolls sideways", async () => {
    const { browser, t, server } = served();
    const page = await memberInBrowser(browser, t, server.url, {
      email: "phone-importer@example.com",
      role: "admin",
      context: { viewport: { width: 390, height: 844 } },
    });
    await page.getByRole("heading", { level: 1, name: "Inbox" }).waitFor();
    await page.goto(`${server.url}/admin/import`);
    const columns = page.getByRole("region", { name: "Columns of a CSV" }).locator("tr[data-column]");
    const count = await columns.count();
    expect(count).toBeGreaterThan(5);
    const viewport = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(viewport.scrollWidth).toBeLessThanOrEqual(viewport.innerWidth);
    for (let index = 0; index < count; index++) {
      const column = columns.nth(index);
      const name = column.locator("td").first();
      const accepts = column.locator("td").last();
      const label = (await column.getAttribute("data-column")) ?? "";
      expect(await name.innerText()).toBe(label);
      expect(await name.isVisible(), label).toBe(true);
      expect(await accepts.isVisible(), label).toBe(true);
      expect((await accepts.innerText()).length, label).toBeGreaterThan(5);
      const nameBox = (await name.boundingBox())!;
      const acceptsBox = (await accepts.boundingBox())!;
      // Whole on the screen, not cut off by a table scrolled in its own box.
      for (const box of [nameBox, acceptsBox]) {
        expect(box.x, label).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, label).toBeLessThanOrEqual(viewport.innerWidth);
      }
      // Under its name, from the same left edge: the screen's width for the words, not a third of it.
      expect(acceptsBox.y, label).toBeGreaterThanOrEqual(nameBox.y + nameBox.height - 1);
      expect(Math.abs(acceptsBox.x - nameBox.x), label).toBeLessThan(2);
    }
    // "Required" stands out from the "Optional" of every other column, not muted as they are.
    const weightOf = (name: string) =>
      columns
        .and(page.locator(`[data-column="${name}"]`))
        .locator("td")
        .nth(1)
        .evaluate((cell) => [cell.textContent?.trim(), Number(getComputedStyle(cell).fontWeight)]);
    expect(await weightOf("title")).toEqual(["Required", 600]);
    expect(await weightOf("votes")).toEqual(["Optional", 400]);
    await page.context().close();
  }, 60_000);

  test("a finished import: its bar is as wide as its card, and one column not read is 'its' column", async () => {
    const { browser, t, server } = served();
    const page = await memberInBrowser(browser, t, server.url, {
      email: "bar-reader@example.com",
      role: "admin",
      context: { viewport: { width: 1366, height: 900 } },
    });
    await page.getByRole("heading", { level: 1, name: "Inbox" }).waitFor();
    await page.goto(`${server.url}/admin/import`);
    await page.getByLabel(/A CSV file/).setInputFiles({
      name: "from-the-old-tool.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("title,board\nDark mode,main\nSSO,main\n"),
    });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const card = page.locator('[data-import][data-state="finished"]');
    await card.waitFor();
    const [bar, inside] = await card.evaluate((section) => {
      const style = getComputedStyle(section);
      return [
        section.querySelector("progress")!.getBoundingClientRect().width,
        section.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      ];
    });
    expect(bar).toBeGreaterThan(inside! - 2);
    expect((await card.locator("[data-unread-columns]").innerText()).replace(/\s+/g, " ")).toStartWith(
      "Not read: 1 column (board); its cells were ignored.",
    );
    await page.context().close();
  }, 60_000);
});
