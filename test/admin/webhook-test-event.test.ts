import { afterAll, beforeAll, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { type DeliveryWorker, startDeliveryWorker } from "../../src/events/worker";
import { describeInBrowser } from "../support/browser";
import { memberInBrowser, openSettingsScreen } from "../support/dashboard";
import { type Receiver, startReceiver } from "../support/receiver";

describeInBrowser(
  "Send a test event on a webhook endpoint's page, in Chromium",
  (served) => {
    let worker: DeliveryWorker;
    let receiver: Receiver;
    let other: Receiver;
    beforeAll(() => {
      worker = startDeliveryWorker(served().t.ctx);
      receiver = startReceiver();
      other = startReceiver();
    });
    afterAll(async () => {
      await worker.stop();
      receiver.stop();
      other.stop();
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
      expect(await result.textContent()).toMatch(
        /Test event sent: the endpoint answered HTTP 200 in \d+ ms\./,
      );

      const [received] = receiver.received;
      expect(receiver.received.length).toBe(1);
      const event = new Webhook(hook.secret).verify(received!.body, received!.headers) as { type: string };
      expect(event.type).toBe("webhook.test");
      const row = page.locator(`tr[data-delivery="${received!.headers["webhook-id"]!}"]`);
      expect(await row.count()).toBe(1);
      const text = (await row.textContent())!.replace(/\s+/g, " ");
      expect(text).toContain("webhook.test");
      expect(text).toMatch(/delivered · HTTP 200 · \d+ ms/);
      expect(await row.getByRole("button", { name: /^Replay/ }).count()).toBe(1);
      expect(other.received).toEqual([]);
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
