import { afterAll, describe, expect, test } from "bun:test";
import { makePost, makeUser } from "../support/board";
import { createProject } from "../../src/projects/service";
import { createAiTestApp } from "./support";

/** The local workflows' words, as a product manager reads them (issue 18). */
const t = createAiTestApp();
afterAll(() => t.close());

describe("words a product manager would sign", () => {
  test("from-text titles a pasted support email from its request, not from the greeting or the pleasantry", async () => {
    const email =
      "Hi team,\n\nHope you're well! I'm writing on behalf of our finance department. " +
      "Our accountants need to export invoices to CSV at the end of every month. Could you add that?\n\n" +
      "Thanks so much,\nMaria";
    const response = await t.call("POST", "/api/v1/posts/from-text", { body: { text: email } });
    expect(response.status).toBe(201);
    const { title } = response.body.data.post;
    expect(title).not.toMatch(/hope|hi team|writing|thanks/i);
    expect(title).toMatch(/export invoices to CSV/i);
  });

  test("summary themes are whole words people wrote, never cut stems", async () => {
    const texts = [
      ["Show numbers on charts", "Label the numbers on every chart"],
      ["Taking notes in meetings", "Taking quick notes while the meeting runs"],
      ["Round numbers in reports", "Numbers with fewer decimals"],
      ["Taking screenshots of boards", "Taking a picture of the board"],
    ];
    for (const [title, description] of texts) await makePost(t, { title, description, status: "APPROVED" });
    const summary = await t.call("POST", "/api/v1/ai/summary", { body: {} });
    expect(summary.status).toBe(200);
    const themes: string[] = summary.body.data.top_themes;
    expect(themes.length).toBeGreaterThan(0);
    const written = texts.flat().join(" ").toLowerCase();
    for (const theme of themes) {
      // A theme is a word or phrase somebody wrote (or a named concept), never a stem like "numb" or "tak".
      expect({ theme, cut: /^(numb|tak|not|meet)$/.test(theme) }).toEqual({ theme, cut: false });
      expect(written.includes(theme.toLowerCase()) || theme.includes(" ")).toBe(true);
    }
  });

  test("a concept the lexicon folds a phrase into reads as the phrase people wrote, never as its token", async () => {
    const texts = [
      ["Knowledge base for customers", "Our customers want a knowledge base with articles"],
      ["Search inside the knowledge base", "Finding an article in the help centre is hard"],
      ["Knowledge base in Spanish", "Translate the knowledge base"],
      ["Saved views for the task list", "Keep my saved views between visits"],
      ["Share saved views with the team", "Saved views everyone can use"],
    ];
    for (const [title, description] of texts) await makePost(t, { title, description, status: "APPROVED" });
    const themes: string[] = (await t.call("POST", "/api/v1/ai/summary", { body: {} })).body.data.top_themes;
    expect(themes).toContain("knowledge base");
    expect(themes).toContain("saved views");
    for (const token of ["helpcenter", "savedview"]) expect(themes).not.toContain(token);
  });

  test("triage keeps platforms apart: an Android app is not a duplicate of an iOS app", async () => {
    const ios = await makePost(t, {
      title: "iOS app",
      description: "A native app for iPhone",
      status: "APPROVED",
    });
    const android = await makePost(t, {
      title: "Android app",
      description: "A native app for Android phones",
    });
    const triage = await t.call("POST", "/api/v1/ai/triage", { body: { limit: 50 } });
    const recommendation = triage.body.data.recommendations.find(
      (item: { postId: string }) => item.postId === android.id,
    );
    expect(recommendation.duplicate_of).not.toBe(ios.id);
    expect(recommendation.suggested_status).not.toBe("CLOSED");
  });

  test("triage keeps platforms apart even when both descriptions name both platforms", async () => {
    const mac = await makePost(t, {
      title: "Desktop client for Mac",
      description:
        "Our team uses the browser on Mac and Windows laptops; a desktop client for Mac would help",
      status: "APPROVED",
    });
    const windows = await makePost(t, {
      title: "Desktop client for Windows",
      description:
        "Our team uses the browser on Mac and Windows laptops; a desktop client for Windows would help",
    });
    const triage = await t.call("POST", "/api/v1/ai/triage", { body: { limit: 50 } });
    const recommendation = triage.body.data.recommendations.find(
      (item: { postId: string }) => item.postId === windows.id,
    );
    expect(recommendation.duplicate_of).not.toBe(mac.id);
    expect(recommendation.duplicate_of).toBeNull();
    expect(recommendation.suggested_status).not.toBe("CLOSED");
    // The same request in other words is still found: no platform named against another.
    const again = await makePost(t, {
      title: "A desktop client for Windows laptops",
      description: "Our team uses the browser on Windows laptops; a desktop client would help",
    });
    const second = await t.call("POST", "/api/v1/ai/triage", { body: { limit: 50 } });
    const found = second.body.data.recommendations.find(
      (item: { postId: string }) => item.postId === again.id,
    );
    expect(found.duplicate_of).toBe(windows.id);
  });

  test("sprint-plan reasons are specific to each request: its rank, its customers, what its text says of its size", async () => {
    // A board of its own: two requests with the same facts (no votes, one line each) rightly read the same.
    const key = createProject(t.ctx.db, { slug: "reasons-board", plan: "growth" }).secretKey;
    const payer = await makeUser(t, { email: "cfo@bigco.example" }, key);
    await t.call("PATCH", `/api/v1/users/${payer.id}`, { key, body: { userSpend: 1200 } });
    const sso = await makePost(
      t,
      { title: "SAML single sign-on", description: "Log in through Okta with SAML", status: "APPROVED" },
      key,
    );
    await t.call("POST", `/api/v1/posts/${sso.id}/votes`, { key, body: { boardUserId: payer.id } });
    await makePost(
      t,
      { title: "Sort the list by date", description: "A sort toggle", status: "APPROVED" },
      key,
    );
    await makePost(t, { title: "Show numbers on charts", status: "APPROVED" }, key);
    await makePost(
      t,
      {
        title: "Weekly digest email",
        description:
          "Every Monday, send each team member one email listing the requests that changed last week, with " +
          "their new status, so nobody has to open the board to keep up.",
        status: "APPROVED",
      },
      key,
    );
    const plan = await t.call("POST", "/api/v1/ai/sprint-plan", { key, body: { capacity: 4 } });
    expect(plan.status).toBe(200);
    const reasons: string[] = plan.body.data.items.map((item: { reason: string }) => item.reason);
    expect(new Set(reasons).size).toBe(reasons.length);
    const ssoReason = plan.body.data.items.find((item: { postId: string }) => item.postId === sso.id).reason;
    expect(ssoReason).toContain("1 paying customer spending");
    expect(ssoReason).toMatch(/#\d+ of \d+ open requests/);
    expect(ssoReason).toMatch(/larger build \(it involves (sso|saml)\)/);
    expect(reasons.join(" ")).not.toContain("small, well-scoped request");
  });
});
