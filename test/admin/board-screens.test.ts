import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { type DeliveryWorker, startDeliveryWorker } from "../../src/events/worker";
import { inviteMember } from "../../src/team/service";
import { createTestApp, type TestApp } from "../support/app";
import { listen, makePost } from "../support/board";
import { browserMissing, launchBrowser } from "../support/browser";
import {
  acceptDialog,
  csrfOf,
  memberInBrowser,
  memberInInbox,
  openSettingsScreen,
  postForm,
  sessionCookieOf,
} from "../support/dashboard";
import { type Receiver, startReceiver } from "../support/receiver";
import { type SmtpReceiver, startSmtpReceiver } from "../email/smtp-receiver";
import { FAKE_STRIPE_KEY, type FakeStripe, startFakeStripe } from "../payments/fake-stripe";

/** Pictures for the README when FEATUREBOARD_SCREENSHOTS=1 (as the board's browser test makes them). */
const SCREENSHOTS = process.env.FEATUREBOARD_SCREENSHOTS === "1";

describe.skipIf(browserMissing())("the roadmap, changelog and activity screens in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;
  beforeAll(async () => {
    t = createTestApp();
    server = listen(t);
    browser = await launchBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await server.stop();
    t.close();
  });

  const signedIn = (email: string, name: string, role: "owner" | "admin" | "member") =>
    memberInInbox(browser, t, server.url, { email, name, role });

  const statusOf = async (id: string) => (await t.call("GET", `/api/v1/posts/${id}`)).body.data.status;

  test("a roadmap card moves by keyboard (its Move form) and by drag and drop; the API sees each status", async () => {
    const planned = await makePost(t, { title: "Saved filters", status: "APPROVED" });
    const building = await makePost(t, { title: "Bulk editing", status: "IN_PROGRESS" });
    await makePost(t, { title: "Two-factor sign-in", status: "COMPLETE" });
    const page = await signedIn("roadmapper@example.com", "Rosa Roadmap", "member");
    await page.getByRole("link", { name: "Roadmap", exact: true }).click();
    await page.getByRole("heading", { name: /^Planned/ }).waitFor();
    if (SCREENSHOTS) {
      await page.screenshot({ path: join(import.meta.dir, "../../docs/screenshots/dashboard-roadmap.png") });
    }

    // Keyboard: pick the column and press Move.
    await page.getByLabel("Move “Saved filters” to").selectOption("IN_PROGRESS");
    await page.locator("li.card", { hasText: "Saved filters" }).getByRole("button", { name: "Move" }).click();
    await page.getByText("Status changed.").waitFor();
    expect(await statusOf(planned.id)).toBe("IN_PROGRESS");
    const inProgress = page.locator('[data-column="IN_PROGRESS"]');
    expect(await inProgress.locator("li.card", { hasText: "Saved filters" }).count()).toBe(1);

    // Mouse: drag a card onto the Complete column.
    await page
      .locator("li.card", { hasText: "Bulk editing" })
      // Grabbed by its top corner, as a hand would, not by its form controls.
      .dragTo(page.locator('[data-column="COMPLETE"]'), { sourcePosition: { x: 6, y: 6 } });
    await page.locator('[data-column="COMPLETE"] li.card', { hasText: "Bulk editing" }).waitFor();
    expect(await statusOf(building.id)).toBe("COMPLETE");

    // Each move was a status change by this member, in the activity screen filtered by member.
    await page.getByRole("link", { name: "Activity" }).click();
    await page.getByLabel("Team member").selectOption({ label: "Rosa Roadmap" });
    await page.getByLabel("Entity").selectOption("post");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/member=/);
    const rows = (await page.locator("tbody tr").allTextContents()).map((row) => row.replace(/\s+/g, " "));
    expect(
      rows.filter((row) => row.includes("Rosa Roadmap moved “Saved filters” from Planned to In progress"))
        .length,
    ).toBe(1);
    expect(
      rows.filter((row) => row.includes("Rosa Roadmap moved “Bulk editing” from In progress to Complete"))
        .length,
    ).toBe(1);
    expect(rows.every((row) => row.includes("Rosa Roadmap"))).toBe(true);
    await page.close();
  }, 60_000);

  test("publish a release that ships two requests: they are archived with it and listed on the public changelog", async () => {
    const first = await makePost(t, { title: "CSV export", status: "COMPLETE" });
    const second = await makePost(t, { title: "Slack alerts", status: "IN_PROGRESS" });
    const page = await signedIn("writer@example.com", "Wes Writer", "admin");
    await page.getByRole("link", { name: "Changelog" }).click();
    await page.getByLabel("Title").fill("November release");
    await page.getByLabel("Version label (optional)").fill("v2.4");
    await page.getByLabel("Notes (markdown)").fill("Two **big** ones this month.");
    // The live preview renders the markdown as it is typed.
    await page.locator("[data-preview] strong", { hasText: "big" }).waitFor();
    // The requests to ship show their status in words, as everywhere else.
    expect(await page.getByRole("checkbox", { name: "Slack alerts (In progress, 0 votes)" }).count()).toBe(1);
    await page.getByRole("checkbox", { name: /CSV export/ }).check();
    await page.getByRole("checkbox", { name: /Slack alerts/ }).check();
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByText("Release published").waitFor();

    for (const post of [first, second]) {
      const stored = (await t.call("GET", `/api/v1/posts/${post.id}`)).body.data;
      expect(stored.status).toBe("ARCHIVED");
      expect(stored.releaseId).toBeString();
    }
    await page.getByRole("link", { name: "On the public changelog" }).click();
    const release = page.locator("article.release", { hasText: "November release" });
    await release.waitFor();
    expect(await release.locator("strong").textContent()).toBe("big");
    expect(await release.locator(".shipped a").allTextContents()).toEqual(
      expect.arrayContaining(["CSV export", "Slack alerts"]),
    );
    await release.getByRole("link", { name: "Slack alerts" }).click();
    await page.waitForURL(`${server.url}/b/acme/posts/${second.id}`);
    // The shipped request says where it shipped, not that it was put away; the public API says so too.
    expect(await page.locator(".meta .status").textContent()).toBe("Shipped");
    await page.getByRole("link", { name: "November release (v2.4)" }).click();
    await page.waitForURL(/\/b\/acme\/changelog#release-/);
    const detail = await fetch(`${server.url}/api/public/boards/acme/posts/${second.id}`);
    const { shippedIn } = ((await detail.json()) as { data: { shippedIn: { title: string; label: string } } })
      .data;
    expect(shippedIn).toMatchObject({ title: "November release", label: "v2.4" });
    await page.close();
  }, 60_000);
  test("a draft is edited (a typo, the requests it ships) and deleted; a published release's typo is fixed", async () => {
    const shipped = await makePost(t, { title: "Ship-me-once feature", status: "COMPLETE" });
    const page = await signedIn("editor@example.com", "Ed Itor", "admin");
    await page.getByRole("link", { name: "Changelog" }).click();
    await page.getByLabel("Title").fill("Decmber release");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText("Release saved as a draft.").waitFor();

    await page.getByRole("link", { name: "Edit Decmber release" }).click();
    await page.getByLabel("Title").fill("December release");
    await page.getByLabel("Version label (optional)").fill("v2.5");
    await page.getByRole("checkbox", { name: /Ship-me-once feature/ }).check();
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText("Release saved as a draft.").waitFor();
    const drafts = (await t.call("GET", "/api/v1/releases?limit=100")).body.data;
    expect(drafts.find((release: { title: string }) => release.title === "Decmber release")).toBeUndefined();
    const edited = (await t.call("GET", "/api/v1/posts")).body.data.find(
      (post: { id: string }) => post.id === shipped.id,
    );
    expect(edited.status).toBe("COMPLETE");

    // Deleting asks first, then the draft is gone; its request stays as it was.
    await page.getByRole("link", { name: "Edit December release" }).click();
    expect(await page.getByRole("checkbox", { name: /Ship-me-once feature/ }).isChecked()).toBe(true);
    await page.getByRole("button", { name: "Delete the release" }).click();
    await page.getByText("Deleted.").waitFor();
    expect(await page.getByText("December release").count()).toBe(0);
    expect((await t.call("GET", `/api/v1/posts/${shipped.id}`)).body.data.status).toBe("COMPLETE");

    // A published release keeps its state when its typo is fixed.
    const published = await t.call("POST", "/api/v1/releases", {
      body: { title: "Janary release", isDraft: false },
    });
    await page.reload();
    await page.getByRole("link", { name: "Edit Janary release" }).click();
    expect(await page.getByRole("button", { name: "Save draft" }).count()).toBe(0);
    await page.getByLabel("Title").fill("January release");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Changes saved.").waitFor();
    const after = (await t.call("GET", `/api/v1/releases/${published.body.data.id}`)).body.data;
    expect(after).toMatchObject({ title: "January release", isDraft: false });
    await page.close();
  }, 60_000);
  test("the analytics chart draws the numbers of GET /analytics, per day", async () => {
    const post = await makePost(t, { title: "Chart me", status: "APPROVED" });
    const voter = await t.call("POST", "/api/v1/users", {
      body: { email: "chart@example.com", userSpend: 120 },
    });
    await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: voter.body.data.id } });
    await t.call("POST", `/api/v1/posts/${post.id}/comments`, { body: { body: "Counted" } });
    await fetch(`${server.url}/b/acme`);
    const page = await signedIn("analyst@example.com", "Ana Lyst", "member");
    await page.getByRole("link", { name: "Analytics" }).click();
    await page.getByLabel("Period").selectOption("week");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/period=week/);
    await page.locator('[data-chart][data-drawn="true"] canvas').waitFor();
    const api = (await t.call("GET", "/api/v1/analytics?period=week")).body.data.stats;
    for (const key of ["new_posts", "total_votes", "new_comments", "page_views"]) {
      expect({ key, shown: Number(await page.locator(`[data-stat="${key}"]`).textContent()) }).toEqual({
        key,
        shown: api[key],
      });
    }
    expect(api.new_posts).toBeGreaterThan(0);
    // The chart's series are those numbers per day: each column of the table under it sums to its total.
    const rows = await page
      .locator("details tbody tr")
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll("td.number")].map((td) => Number(td.textContent))),
      );
    const sums = [0, 1, 2, 3].map((column) => rows.reduce((sum, row) => sum + row[column]!, 0));
    expect(sums).toEqual([api.new_posts, api.total_votes, api.new_comments, api.page_views]);
    // The canvas is drawn on, not blank.
    const inked = await page
      .locator("[data-chart] canvas")
      .first()
      .evaluate((canvas: HTMLCanvasElement) => {
        const pixels = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
        let count = 0;
        for (let index = 3; index < pixels.length; index += 4) if (pixels[index]! > 0) count++;
        return count;
      });
    expect(inked).toBeGreaterThan(500);
    expect(await page.getByText("Chart me").count()).toBeGreaterThan(0);
    if (SCREENSHOTS) {
      await page.screenshot({
        path: join(import.meta.dir, "../../docs/screenshots/dashboard-analytics.png"),
      });
    }
    await page.close();
  }, 60_000);
});

describe("role checks of the changelog and webhook screens", () => {
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

  test("a member may move cards but not write releases or manage webhooks; the preview needs a session and its token", async () => {
    const { token } = inviteMember(t.ctx.db, { email: "m@example.com", role: "member", projectSlug: "acme" });
    const cookie = sessionCookieOf(
      await postForm(`${server.url}/admin/invite/${token}`, { password: "correct horse battery" }),
    );
    const csrf = await csrfOf(server.url, cookie);
    expect((await fetch(`${server.url}/admin/roadmap?project=acme`, { headers: { cookie } })).status).toBe(
      200,
    );
    expect((await fetch(`${server.url}/admin/releases?project=acme`, { headers: { cookie } })).status).toBe(
      403,
    );
    const post = await makePost(t, { title: "Shippable", status: "COMPLETE" });
    const refused = await postForm(
      `${server.url}/admin/releases`,
      { csrf, project: "acme", title: "Sneaky", publish: "yes", postIds: post.id },
      cookie,
    );
    expect(refused.status).toBe(403);
    expect((await t.call("GET", "/api/v1/releases")).body.data).toEqual([]);
    // Webhooks are for admins and owners too: every webhook route refuses a member.
    expect((await fetch(`${server.url}/admin/webhooks?project=acme`, { headers: { cookie } })).status).toBe(
      403,
    );
    for (const path of [
      "/admin/webhooks",
      "/admin/webhooks/x/edit",
      "/admin/webhooks/x/rotate",
      "/admin/webhooks/x/replay",
      "/admin/webhooks/x/delete",
    ]) {
      const response = await postForm(
        `${server.url}${path}`,
        { csrf, project: "acme", url: "https://example.com/h", events: "*" },
        cookie,
      );
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
    }
    expect((await t.call("GET", "/api/v1/integrations/webhooks")).body.data).toEqual([]);
    // Every other settings screen and form refuses a member too.
    for (const path of [
      "/admin/settings",
      "/admin/integrations",
      "/admin/import",
      "/admin/export",
      "/admin/members",
      "/admin/keys",
    ]) {
      const response = await fetch(`${server.url}${path}?project=acme`, {
        headers: { cookie },
        redirect: "manual",
      });
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
    }
    const settingsForms: [string, Record<string, string>][] = [
      ["/admin/settings", { name: "Renamed by a member", isPublic: "true" }],
      ["/admin/settings/logo/remove", {}],
      ["/admin/settings/test-email", {}],
      ["/admin/integrations/team-chat", { webhookUrl: "https://chat.example.com/h", enabled: "true" }],
      ["/admin/integrations/team-chat/test", {}],
      ["/admin/integrations/payments/sync", {}],
      ["/admin/integrations/payments/remove", {}],
    ];
    for (const [path, fields] of settingsForms) {
      const response = await postForm(`${server.url}${path}`, { csrf, project: "acme", ...fields }, cookie);
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
    }
    const upload = new FormData();
    upload.set("csrf", csrf);
    upload.set("project", "acme");
    upload.set("file", new Blob(["title\nSneaky import"], { type: "text/csv" }), "x.csv");
    const imported = await fetch(`${server.url}/admin/import`, {
      method: "POST",
      body: upload,
      headers: { cookie },
      redirect: "manual",
    });
    expect(imported.status).toBe(403);
    expect((await t.call("GET", "/api/public/boards/acme", { key: null })).body.data.name).toBe("Acme");
    expect(
      (await t.call("GET", "/api/v1/posts?limit=100")).body.data.map((post: { title: string }) => post.title),
    ).not.toContain("Sneaky import");
    expect((await postForm(`${server.url}/admin/releases/preview`, { content: "x" })).status).toBe(401);
    expect(
      (
        await postForm(
          `${server.url}/admin/releases/preview`,
          { csrf: "forged", project: "acme", content: "x" },
          cookie,
        )
      ).status,
    ).toBe(400);
    const preview = await postForm(
      `${server.url}/admin/releases/preview`,
      { csrf, project: "acme", content: "<script>alert(1)</script> **ok**" },
      cookie,
    );
    const markup = await preview.text();
    expect(markup).toContain("<strong>ok</strong>");
    expect(markup).not.toContain("<script>");
  });
});

describe.skipIf(browserMissing())("the webhooks screen in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;
  let worker: DeliveryWorker;
  let receiver: Receiver;
  beforeAll(async () => {
    t = createTestApp({ FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true" });
    server = listen(t);
    worker = startDeliveryWorker(t.ctx);
    receiver = startReceiver();
    browser = await launchBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await worker.stop();
    receiver.stop();
    await server.stop();
    t.close();
  });

  test("create a webhook, trigger an event, see the delivery, replay it: the receiver gets the same webhook-id", async () => {
    const page = await memberInBrowser(browser, t, server.url, {
      email: "hooks@example.com",
      role: "admin",
      context: { viewport: { width: 1280, height: 900 } },
    });
    await openSettingsScreen(page, "Webhooks");
    // A refused form says why, and "Back to the form" returns to it with what was typed and ticked.
    await page.getByLabel("URL (https, reachable from the internet)").fill("ftp://example.com/hooks");
    expect(await page.getByRole("checkbox", { name: "Every event (*)" }).isChecked()).toBe(true);
    await page.getByRole("checkbox", { name: "post.created" }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByText("That did not work").waitFor();
    expect(await page.getByText("Go back, correct the form and send it again.").count()).toBe(1);
    await page.getByRole("link", { name: "Back to the form" }).click();
    await page.getByRole("button", { name: "Add endpoint" }).waitFor();
    expect(await page.getByLabel("URL (https, reachable from the internet)").inputValue()).toBe(
      "ftp://example.com/hooks",
    );
    expect(await page.getByRole("checkbox", { name: "post.created" }).isChecked()).toBe(true);
    await page.getByRole("checkbox", { name: "post.created" }).uncheck();
    await page.getByLabel("URL (https, reachable from the internet)").fill(`${receiver.url}/hooks`);
    // Ticking an event unticked "Every event": only the events ticked are sent.
    expect(await page.getByRole("checkbox", { name: "Every event (*)" }).isChecked()).toBe(false);
    await page.getByRole("checkbox", { name: "post.created" }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = await page.locator("[data-secret]").textContent();
    expect(secret).toStartWith("whsec_");
    const stored = (await t.call("GET", "/api/v1/integrations/webhooks")).body.data;
    expect(stored.map((hook: { events: string[] }) => hook.events)).toEqual([["post.created"]]);

    await makePost(t, { title: "Webhook me" });
    const [first] = await receiver.waitFor(1);
    expect(JSON.parse(first!.body).type).toBe("post.created");
    await page.getByRole("link", { name: "Open the endpoint" }).click();
    const row = page.locator("tr[data-delivery]").first();
    await row.waitFor();
    expect(await row.textContent()).toContain("delivered");
    expect(await row.getAttribute("data-delivery")).toBe(first!.headers["webhook-id"]!);
    if (SCREENSHOTS) {
      await page.screenshot({ path: join(import.meta.dir, "../../docs/screenshots/dashboard-webhooks.png") });
    }

    await row.getByRole("button", { name: /^Replay/ }).click();
    await page.getByText("Delivery queued again").waitFor();
    const [, replayed] = await receiver.waitFor(2);
    expect(replayed!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]!);
    expect(replayed!.body).toBe(first!.body);
    // Both attempts show their own outcome; only the latest offers a replay.
    const attempts = page.locator(`tr[data-delivery="${first!.headers["webhook-id"]!}"]`);
    for (let tries = 0; (await attempts.count()) < 2 && tries < 50; tries++) {
      await Bun.sleep(100);
      await page.reload();
    }
    expect(await attempts.count()).toBe(2);
    expect(await attempts.nth(0).textContent()).toContain("delivered");
    expect(await attempts.nth(1).textContent()).toContain("delivered");
    expect(
      await attempts
        .nth(0)
        .getByRole("button", { name: /^Replay/ })
        .count(),
    ).toBe(1);
    expect(
      await attempts
        .nth(1)
        .getByRole("button", { name: /^Replay/ })
        .count(),
    ).toBe(0);

    // Rotating the secret shows a new one, once.
    await page.getByRole("button", { name: "Rotate the signing secret" }).click();
    const rotated = await page.locator("[data-secret]").textContent();
    expect(rotated).toStartWith("whsec_");
    expect(rotated).not.toBe(secret);
    await page.close();
  }, 60_000);
});

describe.skipIf(browserMissing())("import and export from the dashboard in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;
  beforeAll(async () => {
    t = createTestApp();
    server = listen(t);
    browser = await launchBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await server.stop();
    t.close();
  });

  test("upload a 10,000-row CSV and watch its real progress reach 100%; download the export and import it elsewhere", async () => {
    const page = await memberInBrowser(browser, t, server.url, {
      email: "importer@example.com",
      role: "owner",
      name: "Ivo Importer",
      context: { acceptDownloads: true },
    });
    await openSettingsScreen(page, "Import");

    const lines = ["title,description,status,votes,tags"];
    for (let row = 1; row <= 10_000; row++) {
      // Row 5,000 has no title: reported and skipped, the others imported.
      lines.push(
        row === 5_000
          ? ",no title,APPROVED,0,"
          : `Request ${row},Imported from the old tool,APPROVED,${row % 3},legacy`,
      );
    }
    await page.getByLabel(/A CSV file/).setInputFiles({
      name: "requests.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(lines.join("\n")),
    });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.waitForURL(/\/admin\/import\/[0-9a-f-]+/);
    // The bar moves with the job (it starts below 100%), then reaches it.
    const seen = new Set<number>();
    for (;;) {
      const status = (await page.locator("[data-import-status]").textContent()) ?? "";
      seen.add(Number(/^\s*(\d+)%/.exec(status)?.[1] ?? -1));
      if (status.includes("finished")) break;
      await page.waitForTimeout(50);
    }
    expect(Math.max(...seen)).toBe(100);
    expect(Math.min(...seen)).toBeLessThan(100);
    const bar = page.locator("progress");
    expect(await bar.getAttribute("value")).toBe(await bar.getAttribute("max"));
    expect(await page.locator("[data-import-status]").textContent()).toContain("9999 imported, 1 skipped");
    const listed = await t.call("GET", "/api/v1/posts?limit=1");
    expect(listed.body.pagination.total).toBe(9_999);
    const activity = (await t.call("GET", "/api/v1/activity?entityType=import")).body.data;
    expect(activity[0].metadata).toMatchObject({
      imported: 9_999,
      skipped: 1,
      teamMember: { name: "Ivo Importer" },
    });

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download the lossless export" }).click();
    const file = await (await download).path();
    const document = JSON.parse(await Bun.file(file!).text());
    expect(document.posts.length).toBe(9_999);

    // The file imports back into another project as a board export.
    const other = inviteMember(t.ctx.db, {
      email: "importer@example.com",
      role: "owner",
      projectSlug: "other-co",
    });
    // The importer has an account already (in acme), signed in here: they join with one button.
    await page.goto(`${server.url}/admin/invite/${other.token}`);
    await page.getByRole("button", { name: /^Join / }).click();
    await page.getByRole("heading", { name: "Inbox" }).waitFor();
    await page.goto(`${server.url}/admin/import?project=other-co`);
    await page.getByLabel(/A CSV file/).setInputFiles(file!);
    await page.getByRole("button", { name: "Import", exact: true }).click();
    // The result's notice (the screen's column table also holds the word "imported").
    await page
      .getByRole("status")
      .filter({ hasText: /Imported \d/ })
      .waitFor();
    const copied = await t.call("GET", "/api/v1/posts?limit=1", { key: t.other.secretKey });
    expect(copied.body.pagination.total).toBe(9_999);
    await page.close();
  }, 120_000);

  test("a board export with bad rows says which rows were skipped and why, not only how many", async () => {
    const page = await memberInBrowser(browser, t, server.url, {
      email: "checker@example.com",
      role: "owner",
      name: "Cleo Checker",
    });
    const exported = (await t.call("GET", "/api/v1/export")).body.data;
    const post = (title: string, status: string) => ({
      ...{ id: `src-${title}`, title, description: null, status, voteCount: 0, metadata: null },
      ...{ createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" },
      ...{ releaseId: null, mergedIntoId: null, createdByBoardUserId: null, tagIds: [] },
    });
    const document = { ...exported, posts: [post("Kept", "APPROVED"), post("Refused", "SOMEDAY")] };
    await page.goto(`${server.url}/admin/import`);
    await page.getByLabel(/A CSV file/).setInputFiles({
      name: "export.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(document)),
    });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const status = page.getByRole("status");
    await status.getByText("skipped 1").waitFor();
    // Few skipped rows are listed open: their reasons show without a click.
    expect(await status.locator("details[data-skipped]").getAttribute("open")).not.toBeNull();
    expect(await status.getByRole("listitem").allInnerTexts()).toEqual([
      expect.stringMatching(/^posts, row 2: .*status/),
    ]);
    await page.close();
  }, 60_000);
});

describe.skipIf(browserMissing())("the members and API keys screens in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;
  beforeAll(async () => {
    t = createTestApp();
    server = listen(t);
    browser = await launchBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await server.stop();
    t.close();
  });

  test("an owner creates a key the API accepts and revokes it; changes a role; the last owner cannot step down", async () => {
    const page = await memberInBrowser(browser, t, server.url, {
      email: "boss@example.com",
      role: "owner",
      name: "Bea Boss",
    });

    await openSettingsScreen(page, "API keys");
    await page.getByLabel("Kind").selectOption("secret");
    const keyCount = () => t.ctx.db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM api_keys").get()!.n;
    const keysBefore = keyCount();
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.locator("[data-key]").textContent())!;
    expect(key).toStartWith("sk_");
    expect(keyCount()).toBe(keysBefore + 1);
    // Reloading the page that shows the new key sends its form again: answered, not done twice.
    const again = await page.reload();
    expect(again!.status()).toBe(409);
    await page.getByText("This form was already sent").waitFor();
    expect(keyCount()).toBe(keysBefore + 1);
    await openSettingsScreen(page, "API keys");
    expect((await t.call("GET", "/api/v1/posts", { key })).status).toBe(200);
    const row = page.locator("tr", { hasText: key.slice(0, 11) });
    // Revoking asks first; "no" keeps the key working.
    page.off("dialog", acceptDialog);
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await row.getByRole("button", { name: /^Revoke/ }).click();
    await Bun.sleep(300);
    expect(asked).toEqual([
      `Revoke ${key.slice(0, 11)}…? Everything that uses this key stops working at once.`,
    ]);
    expect((await t.call("GET", "/api/v1/posts", { key })).status).toBe(200);
    page.on("dialog", acceptDialog);
    await row.getByRole("button", { name: /^Revoke/ }).click();
    await page.getByText("Key revoked.").waitFor();
    expect((await t.call("GET", "/api/v1/posts", { key })).status).toBe(401);

    await openSettingsScreen(page, "Members");
    await page.getByLabel("Email").fill("helper@example.com");
    await page.getByLabel("Role", { exact: true }).selectOption("member");
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    const url = (await page.locator("code.secret").textContent())!.trim();
    expect(url).toContain("/admin/invite/");
    // Listed as invited until accepted; an invite sent to the wrong person can be withdrawn.
    await openSettingsScreen(page, "Members");
    expect(await page.getByRole("row", { name: /helper@example\.com member/ }).count()).toBe(1);
    await page.getByLabel("Email").fill("wrong@example.com");
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    const wrongUrl = (await page.locator("code.secret").textContent())!.trim();
    await page.getByRole("button", { name: "Withdraw the invite of wrong@example.com" }).click();
    await page.getByText("Invite withdrawn: its link no longer works.").waitFor();
    expect(await page.getByText("wrong@example.com").count()).toBe(0);
    const withdrawn = await (await browser.newContext()).newPage();
    await withdrawn.goto(wrongUrl.replace(/^https?:\/\/[^/]+/, server.url));
    await withdrawn.getByText("This invite link is unknown, used or expired").waitFor();
    expect(await withdrawn.getByRole("button", { name: "Set password and sign in" }).count()).toBe(0);
    await withdrawn.close();
    // The invitee sets a password in their own browser.
    const theirs = await (await browser.newContext()).newPage();
    // The link is built on FEATUREBOARD_PUBLIC_URL; this test's server listens on a port of its own.
    await theirs.goto(url.replace(/^https?:\/\/[^/]+/, server.url));
    await theirs.getByLabel("Password").fill("another long password");
    await theirs.getByRole("button", { name: "Set password and sign in" }).click();
    await theirs.getByRole("heading", { name: "Inbox" }).waitFor();
    await theirs.close();

    await openSettingsScreen(page, "Members");
    await page.getByLabel("Role of helper@example.com", { exact: true }).selectOption("admin");
    await page.getByRole("button", { name: "Change the role of helper@example.com" }).click();
    await page.getByText("Changes saved.").waitFor();
    expect(await page.getByLabel("Role of helper@example.com", { exact: true }).inputValue()).toBe("admin");
    await page.getByLabel("Role of boss@example.com", { exact: true }).selectOption("member");
    await page.getByRole("button", { name: "Change the role of boss@example.com" }).click();
    await page.getByText("last owner cannot step down").waitFor();
    await page.close();
  }, 60_000);
});

describe.skipIf(browserMissing())("the settings screen in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = createTestApp({ FEATUREBOARD_SMTP_URL: smtp.url });
    server = listen(t);
    browser = await launchBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await server.stop();
    t.close();
    await smtp.close();
  });

  const PNG = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  );

  test("name, accent colour and logo show on the board and reach the widget; a private board disappears; a test email arrives", async () => {
    await makePost(t, { title: "Branded request", status: "APPROVED" });
    const page = await memberInBrowser(browser, t, server.url, { email: "brand@example.com", role: "admin" });
    await page.getByRole("link", { name: "Settings" }).click();

    await page.getByLabel(/^Name/).fill("Acme Rockets");
    // Picking a colour is choosing it: "Use the default colour" unticks itself.
    expect(await page.getByLabel("Use the default colour").isChecked()).toBe(true);
    await page.getByLabel("Accent colour").fill("#0f766e");
    expect(await page.getByLabel("Use the default colour").isChecked()).toBe(false);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Changes saved.").waitFor();
    await page
      .getByLabel(/A PNG, JPEG/)
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: "Upload logo" }).click();
    await page.getByRole("img", { name: "The current logo" }).waitFor();

    // An SVG (it can carry script) is refused, whatever it claims to be.
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    await page
      .getByLabel(/A PNG, JPEG/)
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: svg });
    await page.getByRole("button", { name: "Upload logo" }).click();
    await page.getByText("must be a PNG, JPEG, WebP or GIF image").waitFor();

    await page.goto(`${server.url}/b/acme`);
    expect(await page.locator("header .brand").textContent()).toContain("Acme Rockets");
    const logoWidth = await page
      .locator("header .brand img.logo")
      .evaluate((img: HTMLImageElement) =>
        img.complete
          ? img.naturalWidth
          : new Promise((resolve) => (img.onload = () => resolve(img.naturalWidth))),
      );
    expect(logoWidth).toBe(1);
    const accent = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue("--accent").trim(),
    );
    expect(accent).toBe("#0f766e");
    const widget = await t.call("GET", "/api/public/widget", {
      key: null,
      headers: { "x-publishable-key": t.project.publishableKey },
    });
    expect(widget.body.data).toMatchObject({ name: "Acme Rockets", accentColor: "#0f766e" });
    expect(widget.body.data.logoUrl).toContain("/b/acme/logo?v=");

    const start = smtp.mail.length;
    await page.goto(`${server.url}/admin/settings?project=acme`);
    await page.getByRole("button", { name: "Send a test email to brand@example.com" }).click();
    await page.getByText("Test email sent").waitFor();
    expect(smtp.mail.slice(start).map((mail) => mail.to[0])).toEqual(["brand@example.com"]);

    await page.getByLabel(/Public board \(anyone/).uncheck();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Changes saved.").waitFor();
    expect((await fetch(`${server.url}/b/acme`)).status).toBe(404);
    expect((await t.call("GET", "/api/public/boards/acme", { key: null })).status).toBe(403);
    await page.close();
  }, 60_000);
});

describe.skipIf(browserMissing())("the integrations screen in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;
  let chat: Receiver;
  let brokenChat: Receiver;
  let codeHost: Receiver;
  let stripe: FakeStripe;
  beforeAll(async () => {
    chat = startReceiver();
    brokenChat = startReceiver(() => new Response("internal error", { status: 500 }));
    codeHost = startReceiver(() => Response.json({ id: 1, full_name: "acme/app" }));
    stripe = startFakeStripe([
      {
        id: "sub_1",
        customer: { id: "cus_1", email: "payer@bigco.example" },
        items: [{ unitAmount: 4900, interval: "month" }],
      },
    ]);
    t = createTestApp({
      FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true",
      FEATUREBOARD_CODE_HOST_API_URL: codeHost.url,
      FEATUREBOARD_PAYMENTS_API_URL: stripe.url,
    });
    server = listen(t);
    browser = await launchBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await server.stop();
    t.close();
    chat.stop();
    brokenChat.stop();
    codeHost.stop();
    stripe.stop();
  });

  test("set up chat, code host and payments; each test reaches its service; Sync now shows its result", async () => {
    const page = await memberInBrowser(browser, t, server.url, { email: "ops@example.com", role: "admin" });
    await openSettingsScreen(page, "Integrations");

    const teamChat = page.locator('[data-integration="team-chat"]');
    await teamChat.getByLabel("Incoming-webhook URL").fill(`${chat.url}/slack`);
    await teamChat.getByRole("button", { name: "Save" }).click();
    await page.getByText("Changes saved.").waitFor();
    await page.locator('[data-integration="team-chat"]').getByRole("button", { name: "Send a test" }).click();
    // A test that worked: the success notice under the card's buttons.
    const reached = page.locator('[data-integration="team-chat"]').getByRole("status");
    await reached.waitFor();
    expect(await reached.textContent()).toContain("reached it");
    expect(await reached.getAttribute("class")).toBe("notice");
    expect(await page.getByRole("alert").count()).toBe(0);
    const [message] = await chat.waitFor(1);
    expect(JSON.parse(message!.body).text).toContain("test message from Acme");

    const code = page.locator('[data-integration="code-host"]');
    await code.getByLabel("Owner").fill("acme");
    await code.getByLabel("Repository").fill("app");
    await code.getByRole("button", { name: "Save" }).click();
    await page.getByText("Changes saved.").waitFor();
    await page.locator('[data-integration="code-host"]').getByRole("button", { name: "Send a test" }).click();
    await page.locator('[data-integration="code-host"] [data-test-result]').waitFor();
    const [probe] = await codeHost.waitFor(1);
    expect(`${probe!.method} ${probe!.path}`).toBe("GET /repos/acme/app");

    // A test that failed (the channel answers 500): an alert in the error style, not the green notice.
    const community = page.locator('[data-integration="community-chat"]');
    await community.getByLabel("Channel webhook URL").fill(`${brokenChat.url}/discord`);
    await community.getByRole("button", { name: "Save" }).click();
    await page.getByText("Changes saved.").waitFor();
    await page
      .locator('[data-integration="community-chat"]')
      .getByRole("button", { name: "Send a test" })
      .click();
    const failed = page.locator('[data-integration="community-chat"]').getByRole("alert");
    await failed.waitFor();
    expect(await failed.textContent()).toContain("The test failed");
    expect(await page.locator('[data-integration="community-chat"] .notice').count()).toBe(0);
    const look = await failed.evaluate((element) => ({
      colour: getComputedStyle(element).color,
      errorClass: element.classList.contains("error"),
    }));
    expect(look).toEqual({ colour: "rgb(180, 35, 24)", errorClass: true });

    // A sync that fails (Stripe refuses the key, 401): an alert in the error style, as a failed test is.
    const payments = page.locator('[data-integration="payments"]');
    await payments.getByLabel("Secret or restricted API key").fill("sk_test_wrong000000000000000000wxyz");
    await payments.getByRole("button", { name: "Save" }).click();
    await page.getByText("Changes saved.").waitFor();
    await page.locator('[data-integration="payments"]').getByRole("button", { name: "Sync now" }).click();
    const syncFailed = page.locator('[data-integration="payments"]').getByRole("alert");
    await syncFailed.waitFor();
    expect(await syncFailed.textContent()).toContain("Sync error");
    expect(await syncFailed.getAttribute("class")).toBe("error failed");
    expect(await page.locator('[data-integration="payments"] .notice').count()).toBe(0);

    // A sync that works: the green notice, no alert.
    await page
      .locator('[data-integration="payments"]')
      .getByLabel("Secret or restricted API key")
      .fill(FAKE_STRIPE_KEY);
    await page.locator('[data-integration="payments"]').getByRole("button", { name: "Save" }).click();
    await page.getByText("Changes saved.").waitFor();
    await page.locator('[data-integration="payments"]').getByRole("button", { name: "Sync now" }).click();
    const synced = page.locator('[data-integration="payments"] [data-test-result]');
    await synced.waitFor();
    expect(await synced.textContent()).toContain("Sync success");
    expect(await synced.getAttribute("role")).toBe("status");
    expect(await synced.getAttribute("class")).toBe("notice");
    expect(await page.locator('[data-integration="payments"]').getByRole("alert").count()).toBe(0);
    const users = (await t.call("GET", "/api/v1/users?limit=10")).body.data as {
      email: string;
      userSpend: string;
    }[];
    expect(users.find((user) => user.email === "payer@bigco.example")?.userSpend).toBe("49.00");
    // The page shows the last sync's result afterwards too.
    await page.goto(`${server.url}/admin/integrations?project=acme`);
    expect(await page.locator('[data-integration="payments"] [data-note]').textContent()).toContain(
      "Last sync",
    );
    await page.close();
  }, 60_000);
});
