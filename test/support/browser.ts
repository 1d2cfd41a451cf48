import { afterAll, beforeAll, describe } from "bun:test";
import { existsSync } from "node:fs";
import { type Browser, chromium, type Locator } from "playwright-core";
import { createTestApp, type TestApp } from "./app";
import { listen } from "./board";

/** Where a Chromium may be: FEATUREBOARD_CHROMIUM first, then Debian's package and common names. */
const CANDIDATES = [
  process.env.FEATUREBOARD_CHROMIUM,
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
];

export const chromiumPath: string | null =
  CANDIDATES.find((path): path is string => Boolean(path) && existsSync(path!)) ?? null;

/** True when the browser tests must be skipped; says why once, so a skipped run is never silent. */
export function browserMissing(): boolean {
  if (chromiumPath !== null) return false;
  console.warn(
    "SKIPPED browser tests: no Chromium found (looked at FEATUREBOARD_CHROMIUM, /usr/bin/chromium, " +
      "/usr/bin/chromium-browser, /usr/bin/google-chrome). Install it with: apt-get install -y chromium",
  );
  return true;
}

export function launchBrowser(): Promise<Browser> {
  if (chromiumPath === null) throw new Error("no Chromium to launch");
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    // Containers often run as root without user namespaces, where Chromium's sandbox cannot start.
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
}

/** A test app served on a loopback port, with a Chromium to use it: what the browser suites start with. */
export interface ServedInBrowser {
  t: TestApp;
  server: { url: string; stop: () => Promise<void> };
  browser: Browser;
}

/**
 * Starts a test app (with `env`) on a real port and a Chromium; should Chromium fail to start, the app is
 * stopped before the error goes on. `stopServed` ends what it started.
 */
export async function serveInBrowser(env: Record<string, string> = {}): Promise<ServedInBrowser> {
  const t = createTestApp(env);
  const server = listen(t);
  try {
    return { t, server, browser: await launchBrowser() };
  } catch (error) {
    await server.stop();
    t.close();
    throw error;
  }
}

/** Closes the browser, the port and the app; a suite whose start failed passes what it has (nothing). */
export async function stopServed(served: Partial<ServedInBrowser>): Promise<void> {
  await served.browser?.close();
  await served.server?.stop();
  served.t?.close();
}

/**
 * A suite that uses the dashboard or the board in Chromium: `serveInBrowser` before its tests and
 * `stopServed` after, skipped (and said so) where no Chromium is installed. `served()` is what was started.
 */
export function describeInBrowser(
  name: string,
  tests: (served: () => ServedInBrowser) => void,
  env: Record<string, string> = {},
): void {
  describe.skipIf(browserMissing())(name, () => {
    let started: Partial<ServedInBrowser> = {};
    beforeAll(async () => {
      started = await serveInBrowser(env);
    }, 30_000);
    afterAll(() => stopServed(started));
    tests(() => {
      const { t, server, browser } = started;
      if (!t || !server || !browser) throw new Error("the browser suite did not start");
      return { t, server, browser };
    });
  });
}

/**
 * The text a screen reader reads after a field's name: the elements its `aria-describedby` names, in its
 * own document or shadow root (the widget's). Null when it names none that exist.
 */
export function describedText(field: Locator): Promise<string | null> {
  return field.evaluate((element) => {
    const root = element.getRootNode();
    if (!(root instanceof Document || root instanceof ShadowRoot)) return null;
    const ids = (element.getAttribute("aria-describedby") ?? "").split(/\s+/).filter((id) => id !== "");
    const texts = ids
      .map((id) => root.getElementById(id)?.textContent?.trim() ?? "")
      .filter((text) => text !== "");
    return texts.length === 0 ? null : texts.join(" ");
  });
}
