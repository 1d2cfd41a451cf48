import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

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
