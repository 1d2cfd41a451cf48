import { afterAll, beforeAll, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { type DeliveryWorker, startDeliveryWorker } from "../../src/events/worker";
import { describeInBrowser } from "../support/browser";
import { memberInBrowser, openSettingsScreen } from "../support/dashboard";
import { makePost } from "../support/board";
import { type Receiver, startReceiver } from "../support/receiver";

describeInBrowser(
  "Send a test event on a webhook endpoint's page, in Chromium",
  (served) => {
    let worker: DeliveryWorker;
    let receiver: Receiver;
    let other: Receiver;
    let failing: Receiver;
    beforeAll(() => {
      worker = startDeliveryWorker(served().t.ctx);
      receiver = startReceiver();
      other = startReceiver();
      failing = startReceiver(() => new Response("down for maintenance until 14:00", { status: 500 }));
    });
    afterAll(async () => {
      await worker.stop();
      receiver.stop();
      other.stop();
      failing.stop();
    });

    test("an admin clicks Send a test event: the page says the endpoint answered 200 and its row shows in the history; only that endpoint got it", async () => {
      const { t, server, browser } = served();
      const hook = (
        await t.call("POST", "/api/v1/integrations/webhooks", {
          body: { url: `${receiver.url}/hooks`, events: ["release.published"], description: "CRM sync" },
        })
      ).body.data;
      await t.call("POST", "/api/v1/integrations/webhooks", {
        body: { url: `${other.url}/everything`, events: ["*"] },
      });

      const page = await memberInBrowser(browser, t, server.url, {
        email: "tester@example.com",
        role: "admin",
        context: { viewport: { width: 1280, height: 900 } },
      });
      await openSettingsScreen(page, "Webhooks");
      await page.getByRole("link", { name: `${receiver.url}/hooks` }).click();
      await page.getByRole("heading", { name: `${receiver.url}/hooks` }).waitFor();
      expect(await page.getByText("No deliveries yet.").count()).toBe(1);

      await page.getByRole("button", { name: "Send a test event" }).click();
      const result = page.getByRole("status").filter({ hasText: "Test event" });
      await result.waitFor();
      // A number and its unit are kept together by a no-break space, here and in the history.
      expect(await result.textContent()).toMatch(
        /Test event sent: the endpoint answered HTTP 200 in \d+\u00a0ms\./,
      );
      expect(await result.getAttribute("class")).toBe("notice");
      expect(await page.getByRole("alert").count()).toBe(0);

      const [received] = receiver.received;
      expect(receiver.received.length).toBe(1);
      const event = new Webhook(hook.secret).verify(received!.body, received!.headers) as { type: string };
      expect(event.type).toBe("webhook.test");
      const row = page.locator(`tr[data-delivery="${received!.headers["webhook-id"]!}"]`);
      expect(await row.count()).toBe(1);
      const text = (await row.textContent())!.replace(/\s+/g, " ");
      expect(text).toContain("webhook.test");
      expect(text).toMatch(/delivered · HTTP 200 · \d+ ms/);
      expect(await row.textContent()).toMatch(/delivered · HTTP 200 · \d+\u00a0ms/);
      expect(await row.getByRole("button", { name: /^Replay/ }).count()).toBe(1);
      expect(other.received).toEqual([]);
      await page.close();
    }, 60_000);

    test("the endpoint's page on a laptop and a phone: the address wraps, every delivery's time, result and Replay show, and a failure with a retry due says when", async () => {
      const { t, server, browser } = served();
      const url = `${failing.url}/webhooks/incoming/featureboard-events-for-the-data-warehouse`;
      const hook = (
        await t.call("POST", "/api/v1/integrations/webhooks", {
          body: { url, events: ["post.created"], description: "Data warehouse" },
        })
      ).body.data;
      await makePost(t, { title: "Dark mode" });
      // The first attempt failed (HTTP 500) and a retry is due: the API's `pending`.
      await failing.waitFor(1);
      let attempts: { state: string }[] = [];
      for (let tries = 0; attempts.length === 0 && tries < 300; tries++) {
        if (tries > 0) await Bun.sleep(50);
        attempts = (await t.call("GET", `/api/v1/integrations/webhooks/${hook.id}`)).body.data
          .recentDeliveries;
      }
      expect(attempts[0]!.state).toBe("pending");

      const page = await memberInBrowser(browser, t, server.url, {
        email: "laptop-and-phone@example.com",
        role: "admin",
        // A smaller laptop's screen, where the history's column is some 600 px wide.
        context: { viewport: { width: 1024, height: 768 } },
      });
      await page.getByRole("heading", { name: "Inbox" }).waitFor();
      await page.goto(`${server.url}/admin/webhooks/${hook.id}?project=acme`);
      await page.getByRole("button", { name: "Send a test event" }).click();
      // A failed test is an alert in the error style under its button, not the green success notice.
      const failed = page.getByRole("alert").filter({ hasText: "Test event failed" });
      await failed.waitFor();
      expect(await failed.textContent()).toMatch(/Test event failed after \d+\u00a0ms: HTTP 500/);
      expect(await page.locator(".notice").filter({ hasText: "Test event" }).count()).toBe(0);
      const look = await failed.evaluate((element) => {
        const style = getComputedStyle(element);
        const errorColour = getComputedStyle(document.documentElement).getPropertyValue("--error").trim();
        const probe = document.createElement("span");
        probe.style.color = errorColour;
        document.body.append(probe);
        const expected = getComputedStyle(probe).color;
        probe.remove();
        return {
          colour: style.color,
          expected,
          background: style.backgroundColor,
          afterForm: element.previousElementSibling?.matches("form[action$='/test']") ?? false,
        };
      });
      expect(look.colour).toBe(look.expected);
      expect(look.background).not.toBe("rgb(236, 253, 243)");
      expect(look.afterForm).toBe(true);

      const rows = page.locator("tr[data-delivery]");
      expect(await rows.count()).toBe(2);
      const retried = (await rows.filter({ hasText: "post.created" }).innerText()).replace(/\s+/g, " ");
      expect(retried).toMatch(/failed · HTTP 500 · \d+ ms Next try at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
      expect(retried).not.toContain("pending");
      // Laptop: the words beside "Send a test event" stay beside it; the table fits its column, so the
      // Replay button is not hidden to the right (a delivery's id, unbroken, took the width).
      const send = (await page.getByRole("button", { name: "Send a test event" }).boundingBox())!;
      const hintLines = await page
        .locator("form", { has: page.getByRole("button", { name: "Send a test event" }) })
        .locator("small")
        .evaluate((hint) => [...hint.getClientRects()].map((line) => line.left));
      for (const left of hintLines) expect(left).toBeGreaterThanOrEqual(send.x + send.width);
      const table = await page
        .locator(".table-wrap", { has: rows.first() })
        .evaluate((wrap) => ({ scroll: wrap.scrollWidth, shown: wrap.clientWidth }));
      expect(table.scroll).toBeLessThanOrEqual(table.shown);

      // Phone: nothing scrolls sideways; each delivery is an entry with its result and Replay on the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      const width = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        screen: window.innerWidth,
      }));
      expect(width.page).toBeLessThanOrEqual(width.screen);
      const onScreen = [
        page.getByRole("heading", { level: 1, name: url }),
        page.getByRole("button", { name: /^Replay/ }),
        ...(await rows.locator("time").all()),
        ...(await rows.locator("td").filter({ hasText: "HTTP 500 ·" }).all()),
      ];
      for (const element of onScreen) {
        const box = (await element.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width.screen);
      }
      await page.close();
    }, 60_000);

    test("a member sees no Webhooks screen and the endpoint's page is refused", async () => {
      const { t, server, browser } = served();
      const hook = (
        await t.call("POST", "/api/v1/integrations/webhooks", {
          body: { url: `${receiver.url}/members`, events: ["*"] },
        })
      ).body.data;
      const page = await memberInBrowser(browser, t, server.url, {
        email: "triage@example.com",
        role: "member",
      });
      await page.getByRole("heading", { name: "Inbox" }).waitFor();
      const response = await page.goto(`${server.url}/admin/webhooks/${hook.id}?project=acme`);
      expect(response!.status()).toBe(403);
      expect(await page.getByRole("button", { name: "Send a test event" }).count()).toBe(0);
      await page.close();
    }, 60_000);
  },
  { FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true" },
);
