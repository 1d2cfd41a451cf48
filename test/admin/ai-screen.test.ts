import { expect, spyOn, test } from "bun:test";
import { ApiError } from "../../src/http/errors";
import { createProject } from "../../src/projects/service";
import { makePost, makeTag, makeUser } from "../support/board";
import { describeInBrowser } from "../support/browser";
import { memberInBrowser, memberInInbox } from "../support/dashboard";

// The AI helpers on the dashboard (docs/dashboard.md, "AI"): triage, a period's summary and a sprint plan,
// each a form whose answer shows under it; the plan and the AI budget are the API's.

describeInBrowser(
  "the AI screen in Chromium",
  (served) => {
    const app = () => served().t;
    const base = () => served().server.url;

    const signedIn = (email: string, role: "owner" | "admin" | "member" = "admin") =>
      memberInInbox(served().browser, app(), base(), { email, name: email.split("@")[0]!, role });

    test("triage lists a recommendation per pending request, linked, with its status, priority, tags, reason and duplicate", async () => {
      await makeTag(app(), "Export");
      const kept = await makePost(app(), {
        title: "Export reports to CSV",
        description: "Download the monthly report as a CSV file for Excel.",
        status: "APPROVED",
      });
      const copy = await makePost(app(), {
        title: "Export reports as CSV files",
        description: "We need to download our monthly reports as CSV to open them in Excel.",
      });
      const other = await makePost(app(), {
        title: "Dark mode",
        description: "A dark theme for the app at night.",
      });

      const page = await signedIn("pm@example.com");
      await page.getByRole("link", { name: "AI", exact: true }).click();
      await page.getByRole("heading", { name: "AI helpers" }).waitFor();
      await page.getByLabel(/Pending requests to triage/).fill("10");
      await page.getByRole("button", { name: "Triage" }).click();

      const list = page.getByRole("list", { name: /2 recommendations/ });
      await list.waitFor();
      const duplicate = list.locator(`[data-recommendation="${copy.id}"]`);
      expect(await duplicate.locator("[data-suggested-status]").innerText()).toBe("Closed");
      expect(await duplicate.locator("[data-priority]").innerText()).toBe("low");
      expect(await duplicate.locator("[data-suggested-tags]").innerText()).toMatch(/Export|none suggested/);
      expect(await duplicate.locator("[data-reason]").innerText()).toContain(
        'Likely duplicate of "Export reports to CSV"',
      );
      const duplicateOf = duplicate.locator("[data-duplicate-of]").getByRole("link");
      expect(await duplicateOf.innerText()).toBe("Export reports to CSV");
      expect(await duplicateOf.getAttribute("href")).toBe(`/admin/posts/${kept.id}?project=acme`);
      const alone = list.locator(`[data-recommendation="${other.id}"]`);
      expect(await alone.locator("[data-duplicate-of]").count()).toBe(0);
      expect(await alone.locator("[data-suggested-status]").innerText()).toBe("Pending");

      // Each recommendation opens its request page.
      await duplicate.getByRole("link", { name: "Export reports as CSV files" }).click();
      await page.getByRole("heading", { name: "Export reports as CSV files" }).waitFor();
      await page.close();
    }, 60_000);

    test("the summary of a period shows its text, highlights, themes and figures", async () => {
      const voter = await makeUser(app(), { email: "buyer@example.com", userSpend: 120 });
      const post = await makePost(app(), { title: "Offline mode for the mobile app" });
      await app().call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: voter.id } });

      const page = await signedIn("ceo-report@example.com", "owner");
      await page.goto(`${base()}/admin/ai?project=acme`);
      await page.getByLabel("Period", { exact: true }).selectOption("month");
      await page.getByRole("button", { name: "Summarise" }).click();
      await page.getByRole("heading", { name: "Summary of the last 30 days" }).waitFor();
      expect((await page.locator("[data-summary]").innerText()).length).toBeGreaterThan(20);
      // The figures are the API's for the same period.
      const { stats } = (await app().call("POST", "/api/v1/ai/summary", { body: { period: "month" } })).body
        .data;
      for (const key of ["new_posts", "total_votes", "new_comments", "status_changes", "completed"]) {
        expect(await page.locator(`[data-stat="${key}"]`).innerText()).toBe(String(stats[key]));
      }
      expect(stats.total_votes).toBeGreaterThan(0);
      expect(await page.getByRole("heading", { name: "Highlights" }).count()).toBe(1);
      expect(await page.getByRole("heading", { name: "Top themes" }).count()).toBe(1);
      // The period chosen stays chosen for the next run.
      expect(await page.getByLabel("Period", { exact: true }).inputValue()).toBe("month");
      await page.close();
    }, 60_000);

    test("a sprint plan takes a capacity and a strategy and lists the picks, linked, with their reasons", async () => {
      const voters = await Promise.all(
        ["a", "b", "c"].map((name) => makeUser(app(), { email: `${name}@voters.example` })),
      );
      const popular = await makePost(app(), { title: "Calendar sync", status: "APPROVED" });
      for (const voter of voters) {
        await app().call("POST", `/api/v1/posts/${popular.id}/votes`, { body: { boardUserId: voter.id } });
      }
      const page = await signedIn("planner@example.com");
      await page.goto(`${base()}/admin/ai?project=acme`);
      await page.getByLabel(/Capacity/).fill("2");
      await page.getByLabel("Strategy").selectOption("popular");
      await page.getByRole("button", { name: "Plan" }).click();
      const plan = page.getByRole("list", { name: /Sprint plan: Popular/ });
      await plan.waitFor();
      const items = plan.locator("[data-planned]");
      expect(await items.count()).toBe(2);
      expect(await items.first().getAttribute("data-planned")).toBe(popular.id);
      expect(await items.first().getByRole("link", { name: "Calendar sync" }).getAttribute("href")).toBe(
        `/admin/posts/${popular.id}?project=acme`,
      );
      expect(await items.first().locator("[data-reason]").innerText()).toContain("3 votes");
      expect(await page.locator("[data-plan-summary]").innerText()).toMatch(/^Planned 2 posts of \d+ open/);
      await page.close();
    }, 60_000);

    test("below the growth plan the screen says what is needed instead of failing; members are not offered it", async () => {
      createProject(app().ctx.db, { slug: "smallco", name: "Small Co", plan: "free" });
      const page = await memberInBrowser(served().browser, app(), base(), {
        email: "free@example.com",
        role: "admin",
        project: "smallco",
      });
      await page.getByRole("link", { name: "AI", exact: true }).click();
      const notice = page.locator("[data-plan-needed]");
      expect(await notice.innerText()).toBe(
        "The AI screen requires the growth plan or higher; this project is on free",
      );
      await page.getByText("featureboard project set-plan smallco growth").waitFor();
      expect(await page.getByRole("button", { name: "Triage" }).count()).toBe(0);

      const member = await signedIn("triager@example.com", "member");
      expect(await member.getByRole("link", { name: "AI", exact: true }).count()).toBe(0);
      const refused = await member.goto(`${base()}/admin/ai?project=acme`);
      expect(refused?.status()).toBe(403);
      await member.getByText("Using the AI helpers needs the admin role").waitFor();
      await page.close();
      await member.close();
    }, 60_000);

    test("a failing AI model is a clear message on the page with the provider's status, not JSON or a 500", async () => {
      const page = await signedIn("unlucky@example.com");
      await page.goto(`${base()}/admin/ai?project=acme`);
      const summarise = spyOn(app().ctx.ai.provider, "summarise").mockImplementationOnce(() => {
        throw new ApiError("UPSTREAM_ERROR", "Model server answered 503", "Retry later.", { retry: true });
      });
      try {
        const answer = page.waitForResponse((response) => response.url().endsWith("/admin/ai/summary"));
        await page.getByRole("button", { name: "Summarise" }).click();
        expect((await answer).status()).toBe(502);
        expect(await page.getByRole("alert").innerText()).toBe(
          "The AI model did not answer: nothing was worked out",
        );
        await page.getByText(/it said: Model server answered 503/).waitFor();
        await page.getByRole("link", { name: "Open the page again" }).click();
        await page.getByRole("heading", { name: "AI helpers" }).waitFor();
      } finally {
        summarise.mockRestore();
      }
      await page.close();
    }, 60_000);

    // Last: it spends the project's AI budget.
    test("the dashboard draws on the project's AI budget, shared with the API: once spent, the page says so (429)", async () => {
      const page = await signedIn("budget@example.com");
      await page.goto(`${base()}/admin/ai?project=acme`);
      let spent = false;
      for (let call = 0; call < 100 && !spent; call++) {
        spent = (await app().call("POST", "/api/v1/ai/summary", { body: {} })).status === 429;
      }
      expect(spent).toBe(true);
      const answer = page.waitForResponse((response) => response.url().endsWith("/admin/ai/sprint-plan"));
      await page.getByRole("button", { name: "Plan" }).click();
      const refused = await answer;
      expect(refused.status()).toBe(429);
      expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
      expect(await page.getByRole("alert").innerText()).toBe(
        "Acme has used its AI budget for the moment: nothing was worked out",
      );
      await page.getByText(/shared with the API and the MCP tools/).waitFor();
      await page.close();
    }, 60_000);
  },
  // The budget refills one call a minute here (30 a minute by default): the budget test's click comes after
  // its last refused call, and on a busy machine two seconds between them refilled one call (a 200, seen
  // once in a full run).
  { FEATUREBOARD_RATE_LIMIT_AI_PER_MINUTE: "1", FEATUREBOARD_RATE_LIMIT_AI_BURST: "30" },
);
