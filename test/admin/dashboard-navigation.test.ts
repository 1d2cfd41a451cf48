/// <reference lib="dom" />
import { expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { createProject } from "../../src/projects/service";
import { inviteMember } from "../../src/team/service";
import { makePost } from "../support/board";
import { describeInBrowser } from "../support/browser";
import { memberInBrowser, openSettingsScreen } from "../support/dashboard";

/**
 * The dashboard's header in Chromium: an owner's whole header (every screen, the project switcher, the
 * account and sign-out) on one line of a 1366 px laptop, the navigation on a row of its own under 900 px,
 * and the set-up screens grouped under Settings, each reachable from the others (docs/dashboard.md).
 */
describeInBrowser("the dashboard's navigation in Chromium", (served) => {
  const app = () => served().t;
  const base = () => served().server.url;

  /** A project name of the longest kind (100 characters), widening the switcher's select to it. */
  const LONG_PROJECT =
    "Northwind Traders Mobile, the iPhone and Android apps for shops, warehouses and delivery drivers".padEnd(
      100,
      "!",
    );
  const LONG_NAME = "Olivia Alexandra Whitfield-Montgomery-Owner of the Mobile Apps";

  /**
   * An owner with a long name of two projects (so the header shows the switcher), one of them with a long
   * name, with a request waiting (the badge).
   */
  async function ownerOfTwoProjects(): Promise<Page> {
    createProject(app().ctx.db, { slug: "northwind", name: LONG_PROJECT, plan: "growth" });
    await makePost(app(), { title: "Waiting in the inbox", status: "PENDING" });
    const page = await memberInBrowser(served().browser, app(), base(), {
      email: "laptop-owner@example.com",
      name: LONG_NAME,
      role: "owner",
      context: { viewport: { width: 1366, height: 768 } },
    });
    await page.getByRole("heading", { level: 1, name: "Inbox" }).waitFor();
    const { token } = inviteMember(app().ctx.db, {
      email: "laptop-owner@example.com",
      role: "owner",
      projectSlug: "northwind",
    });
    await page.goto(`${base()}/admin/invite/${token}`);
    await page.getByRole("button", { name: `Join ${LONG_PROJECT}` }).click();
    await page.goto(`${base()}/admin?project=acme`);
    await page.getByRole("heading", { level: 1, name: "Inbox" }).waitFor();
    return page;
  }

  /**
   * Whether every link and control of the header sits on one line: each one's box spans the same height
   * (the lowest top is above the highest bottom), whatever a pixel of centring between a select and a link.
   */
  async function headerOnOneLine(page: Page): Promise<boolean> {
    const boxes = await page
      .locator("header a:not(.skip), header select, header button")
      .evaluateAll((items) =>
        items.map((item) => {
          const box = item.getBoundingClientRect();
          return { top: box.top, bottom: box.bottom };
        }),
      );
    return Math.max(...boxes.map((box) => box.top)) < Math.min(...boxes.map((box) => box.bottom));
  }

  test("an owner's header, with the project switcher, is one line at 1366 px; its links stay readable and big enough to click", async () => {
    const page = await ownerOfTwoProjects();
    const header = page.locator("header");
    await header.getByLabel("Project").waitFor();
    // The long names end in "…" on screen; the account link keeps the whole name.
    expect(await header.getByRole("link", { name: LONG_NAME }).count()).toBe(1);
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    const tops = await nav
      .getByRole("link")
      .evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    // The links, the switcher, the account and sign-out: all on that one row.
    expect(await headerOnOneLine(page)).toBe(true);
    // The set-up screens are one link, Settings (Members, API keys and the others are under it).
    expect(await nav.getByRole("link").allInnerTexts()).toEqual([
      "Inbox 1",
      "Requests",
      "Roadmap",
      "Changelog",
      "Analytics",
      "AI",
      "Activity",
      "Settings",
      "Public board",
    ]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
    const sizes = await header.locator("a:not(.skip)").evaluateAll((links) =>
      links.map((link) => {
        const style = getComputedStyle(link);
        return {
          text: link.textContent?.trim(),
          fontSize: parseFloat(style.fontSize),
          padding: parseFloat(style.paddingLeft),
          height: link.getBoundingClientRect().height,
        };
      }),
    );
    for (const size of sizes) {
      expect(size.fontSize, size.text).toBeGreaterThanOrEqual(13);
      expect(size.padding, size.text).toBeGreaterThanOrEqual(4);
      expect(size.height, size.text).toBeGreaterThanOrEqual(24);
    }

    // Under 900 px the navigation takes a row of its own, below the project, the account and sign-out.
    await page.setViewportSize({ width: 800, height: 900 });
    const navBox = (await nav.boundingBox())!;
    const signOut = (await header.getByRole("button", { name: "Sign out" }).boundingBox())!;
    expect(navBox.y).toBeGreaterThanOrEqual(signOut.y + signOut.height);
    expect(navBox.x + navBox.width).toBeLessThanOrEqual(800);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    await page.context().close();
  }, 60_000);

  test("every link of the header opens its screen; Settings holds the set-up screens, each linked from the others", async () => {
    const page = await memberInBrowser(served().browser, app(), base(), {
      email: "clicking-owner@example.com",
      name: "Clicking Owner",
      role: "owner",
      context: { viewport: { width: 1366, height: 768 } },
    });
    await page.getByRole("heading", { level: 1, name: "Inbox" }).waitFor();
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    const screens: [string, RegExp][] = [
      ["Requests", /^Requests/],
      ["Roadmap", /^Roadmap$/],
      ["Changelog", /^Changelog$/],
      ["Analytics", /^Analytics$/],
      ["AI", /^AI helpers$/],
      ["Activity", /^Activity$/],
      ["Settings", /^Settings of /],
      ["Inbox", /^Inbox/],
    ];
    for (const [link, heading] of screens) {
      // "Inbox" carries the count of what waits.
      const item = nav.getByRole("link", { name: new RegExp(`^${link}`) });
      await item.click();
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      expect(await item.getAttribute("aria-current")).toBe("page");
    }

    // The set-up screens: a row of their own on each of them, Settings marked in the header meanwhile.
    await nav.getByRole("link", { name: "Settings" }).click();
    const settings = page.getByRole("navigation", { name: "Settings" });
    expect(await settings.getByRole("link").allInnerTexts()).toEqual([
      "General",
      "Tags",
      "Members",
      "API keys",
      "Webhooks",
      "Integrations",
      "Import",
    ]);
    const setUp: [string, RegExp][] = [
      ["Tags", /^Tags/],
      ["Members", /^Members of /],
      ["API keys", /^API keys/],
      ["Webhooks", /^Webhooks/],
      ["Integrations", /^Integrations$/],
      ["Import", /^Import and export/],
      ["General", /^Settings of /],
    ];
    for (const [link, heading] of setUp) {
      await settings.getByRole("link", { name: link, exact: true }).click();
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      expect(await settings.getByRole("link", { name: link, exact: true }).getAttribute("aria-current")).toBe(
        "page",
      );
      expect(await nav.getByRole("link", { name: "Settings" }).getAttribute("aria-current")).not.toBeNull();
    }

    await nav.getByRole("link", { name: "Public board" }).click();
    await page.waitForURL(`${base()}/b/acme`);
    await page.context().close();
  }, 60_000);

  test("no set-up screen carries a link of its own back to Settings: the header and the tab row are the way", async () => {
    const page = await memberInBrowser(served().browser, app(), base(), {
      email: "back-links-owner@example.com",
      role: "owner",
    });
    await page.getByRole("heading", { level: 1, name: "Inbox" }).waitFor();
    await openSettingsScreen(page, "General");
    const tabs = await page.getByRole("navigation", { name: "Settings" }).getByRole("link").allInnerTexts();
    for (const tab of tabs) {
      await openSettingsScreen(page, tab);
      await page.getByRole("navigation", { name: "Settings" }).locator('[aria-current="page"]').waitFor();
      // The Tags screen had a "← Settings" link above its heading, from before the tab row, which led to
      // General, its neighbour, not to where it sits.
      const ownLinks = await page
        .locator('main a[href^="/admin/settings"]:not(nav a)')
        .evaluateAll((links) => links.map((link) => link.textContent?.trim()));
      expect(ownLinks, tab).toEqual([]);
    }
    await page.context().close();
  }, 60_000);

  test("an admin's Settings row leaves out the owners' Members and API keys; a member's header has no Settings", async () => {
    const admin = await memberInBrowser(served().browser, app(), base(), {
      email: "nav-admin@example.com",
      role: "admin",
    });
    await admin.getByRole("heading", { level: 1, name: "Inbox" }).waitFor();
    await admin
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("link", { name: "Settings" })
      .click();
    expect(
      await admin.getByRole("navigation", { name: "Settings" }).getByRole("link").allInnerTexts(),
    ).toEqual(["General", "Tags", "Webhooks", "Integrations", "Import"]);
    await admin.context().close();

    const member = await memberInBrowser(served().browser, app(), base(), {
      email: "nav-member@example.com",
      role: "member",
    });
    await member.getByRole("heading", { level: 1, name: "Inbox" }).waitFor();
    const links = await member
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("link")
      .allInnerTexts();
    // Inbox's count aside (what waits depends on the tests before).
    expect(links.map((link) => link.replace(/\s*\d+$/, ""))).toEqual([
      "Inbox",
      "Requests",
      "Roadmap",
      "Analytics",
      "Activity",
      "Public board",
    ]);
    await member.context().close();
  }, 60_000);

  test("the project switcher keeps the screen: the same screen of the chosen project, a record's list, else its Inbox", async () => {
    const db = app().ctx.db;
    createProject(db, { slug: "switch-beta", name: "Switch Beta", plan: "growth" });
    createProject(db, { slug: "switch-gamma", name: "Switch Gamma", plan: "growth" });
    const request = await makePost(app(), { title: "A request of the first project" });
    // An admin of acme and of Switch Beta, a plain member of Switch Gamma.
    const page = await memberInBrowser(served().browser, app(), base(), {
      email: "switching-admin@example.com",
      role: "admin",
    });
    await page.getByRole("heading", { level: 1, name: "Inbox" }).waitFor();
    for (const [slug, name, role] of [
      ["switch-beta", "Switch Beta", "admin"],
      ["switch-gamma", "Switch Gamma", "member"],
    ] as const) {
      const { token } = inviteMember(db, { email: "switching-admin@example.com", role, projectSlug: slug });
      await page.goto(`${base()}/admin/invite/${token}`);
      await page.getByRole("button", { name: `Join ${name}` }).click();
    }
    const switchTo = async (name: string) => {
      await page.locator("header").getByLabel("Project").selectOption({ label: name });
      await page.locator("header").getByRole("button", { name: "Switch" }).click();
    };
    const landedOn = async (heading: string, path: string, slug: string) => {
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      const url = new URL(page.url());
      expect(url.pathname).toBe(path);
      expect(url.searchParams.get("project")).toBe(slug);
    };

    await page.goto(`${base()}/admin/webhooks?project=acme`);
    await switchTo("Switch Beta");
    await landedOn("Webhooks", "/admin/webhooks", "switch-beta");

    // A request belongs to the project it was on: the other project's Requests.
    await page.goto(`${base()}/admin/posts/${String(request.id)}?project=acme`);
    await page.getByRole("heading", { level: 1, name: "A request of the first project" }).waitFor();
    await switchTo("Switch Beta");
    await landedOn("Requests", "/admin/requests", "switch-beta");

    // Webhooks needs the admin role, which this member lacks in Switch Gamma.
    await page.goto(`${base()}/admin/webhooks?project=acme`);
    await switchTo("Switch Gamma");
    await landedOn("Inbox", "/admin", "switch-gamma");

    // A forged destination opens nothing but the Inbox.
    for (const to of [
      "https://example.com/",
      "//example.com/admin",
      "/admin/../",
      "/admin/webhooks/../keys",
    ]) {
      await page.goto(
        `${base()}/admin/switch?${new URLSearchParams({ to, project: "switch-beta" }).toString()}`,
      );
      await landedOn("Inbox", "/admin", "switch-beta");
    }
    await page.context().close();
  }, 60_000);
});

/**
 * The set-up forms on a phone: each answers on its own tab, with Settings marked in the header, and what it
 * did (a notice, a link or a key shown once, the import's progress) in view without scrolling; a refused one
 * says why there, under a title naming the screen. Webhooks may point at this machine here, so an endpoint
 * can be added without reaching the internet.
 */
describeInBrowser(
  "the set-up screens' forms on a phone",
  (served) => {
    test("each set-up form answers on its own tab, Settings still marked, with what it did in view", async () => {
      const app = served().t;
      // A team of a few: the Members screen lists them and their open invites above its form.
      for (const email of ["ana@example.com", "ben@example.com", "cai@example.com", "dee@example.com"]) {
        inviteMember(app.ctx.db, { email, role: "member", projectSlug: "acme" });
      }
      const page = await memberInBrowser(served().browser, app, served().server.url, {
        email: "phone-owner@example.com",
        role: "owner",
        context: { viewport: { width: 390, height: 844 } },
      });
      await page.getByRole("heading", { level: 1, name: "Inbox" }).waitFor();
      /** The answer is the tab's screen, marked, and what the form did shows without scrolling. */
      const answeredOn = async (tab: string, confirmation: Locator) => {
        await confirmation.waitFor();
        const tabs = page.getByRole("navigation", { name: "Settings" });
        expect(await tabs.getByRole("link", { name: tab, exact: true }).getAttribute("aria-current")).toBe(
          "page",
        );
        expect(
          await page
            .getByRole("navigation", { name: "Dashboard" })
            .getByRole("link", { name: "Settings" })
            .getAttribute("aria-current"),
        ).not.toBeNull();
        const inView = await confirmation.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        });
        expect(inView, tab).toBe(true);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      };

      await openSettingsScreen(page, "General");
      await page.getByLabel(/^Name/).fill("Acme Inc");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await answeredOn("General", page.getByRole("status").filter({ hasText: "Changes saved." }));

      await openSettingsScreen(page, "Tags");
      await page.getByLabel("Label", { exact: true }).fill("Phones");
      await page.getByRole("button", { name: "Create tag" }).click();
      await answeredOn("Tags", page.getByRole("status").filter({ hasText: "Tag created." }));

      await openSettingsScreen(page, "Members");
      await page.getByLabel("Email", { exact: true }).fill("new-hire@example.com");
      await page.getByRole("button", { name: "Invite", exact: true }).click();
      // The one-time link was under the tables and the form, below a phone's screen.
      await answeredOn("Members", page.getByRole("status").filter({ hasText: "Their one-time link" }));

      await openSettingsScreen(page, "API keys");
      await page.getByRole("button", { name: "Create key" }).click();
      await answeredOn("API keys", page.getByRole("status").filter({ has: page.locator("[data-key]") }));

      await openSettingsScreen(page, "Webhooks");
      await page.getByLabel(/^URL/).fill("http://127.0.0.1:9/phone");
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await answeredOn("Webhooks", page.getByRole("status").filter({ has: page.locator("[data-secret]") }));

      await openSettingsScreen(page, "Import");
      await page.getByLabel(/^A CSV file/).setInputFiles({
        name: "requests.csv",
        mimeType: "text/csv",
        buffer: Buffer.from("title,votes\nDark mode,3\nExport to CSV,1\n"),
      });
      await page.getByRole("button", { name: "Import", exact: true }).click();
      await answeredOn("Import", page.locator('[data-import][data-state="finished"]'));
      // innerText: the line as shown, where the page's markup breaks lines between its figures.
      expect(await page.locator("[data-import-status]").innerText()).toContain("2 imported");
      await page.context().close();
    }, 60_000);

    test("a refused set-up form says why on its own tab, and the page's title names the screen", async () => {
      const page = await memberInBrowser(served().browser, served().t, served().server.url, {
        email: "refused-owner@example.com",
        role: "owner",
        context: { viewport: { width: 390, height: 844 } },
      });
      await page.getByRole("heading", { level: 1, name: "Inbox" }).waitFor();
      /** The refusal's page: the reason, the tab still marked, and a title that says where (not "Error"). */
      const refusedOn = async (tab: string, reason: string) => {
        expect(await page.getByRole("alert").textContent()).toBe(reason);
        const tabs = page.getByRole("navigation", { name: "Settings" });
        expect(await tabs.getByRole("link", { name: tab, exact: true }).getAttribute("aria-current")).toBe(
          "page",
        );
        expect(await page.title()).toBe(`Error · ${tab === "General" ? "Settings" : tab} · featureboard`);
      };

      await openSettingsScreen(page, "General");
      await page.getByLabel(/^Name/).fill("   ");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      // Each field named by its label, as the form shows it (the API's messages say 'name', 'label').
      await refusedOn(
        "General",
        "Invalid “Name (shown on the board, the widget and emails)”: must be 1 to 100 characters",
      );

      await openSettingsScreen(page, "Tags");
      await page.getByLabel("Label", { exact: true }).fill("   ");
      await page.getByRole("button", { name: "Create tag" }).click();
      await refusedOn("Tags", "Invalid “Label”: must not be blank");

      await openSettingsScreen(page, "Webhooks");
      await page.getByLabel(/^URL/).fill("not a url");
      await page.getByRole("button", { name: "Add endpoint" }).click();
      // Named by its label, as the form shows it (the API's message says 'url').
      await refusedOn(
        "Webhooks",
        "Invalid “URL (https, reachable from the internet)”: URL must be an absolute URL",
      );

      await openSettingsScreen(page, "Import");
      await page.getByLabel(/^A CSV file/).setInputFiles({
        name: "header-only.csv",
        mimeType: "text/csv",
        buffer: Buffer.from("title,description\n"),
      });
      await page.getByRole("button", { name: "Import", exact: true }).click();
      await refusedOn("Import", "No rows found in the file");
      await page.context().close();
    }, 60_000);

    test("an endpoint's page marks the Webhooks tab as the section it is in, not as the page, and it leads back to the list", async () => {
      const page = await memberInBrowser(served().browser, served().t, served().server.url, {
        email: "endpoint-admin@example.com",
        role: "admin",
        context: { viewport: { width: 390, height: 844 } },
      });
      await page.getByRole("heading", { level: 1, name: "Inbox" }).waitFor();
      await openSettingsScreen(page, "Webhooks");
      await page.getByLabel(/^URL/).fill("http://127.0.0.1:9/endpoint-page");
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await page.getByRole("link", { name: "Open the endpoint" }).click();
      await page.getByRole("heading", { level: 1, name: "http://127.0.0.1:9/endpoint-page" }).waitFor();
      const tab = page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Webhooks" });
      // "page" told a screen reader the tab was this page, so following it would go nowhere.
      expect(await tab.getAttribute("aria-current")).toBe("true");
      expect(await tab.evaluate((link) => getComputedStyle(link).fontWeight)).toBe("600");
      await tab.click();
      await page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
      expect(await tab.getAttribute("aria-current")).toBe("page");
      await page.context().close();
    }, 60_000);
  },
  { FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true" },
);
