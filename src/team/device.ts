/**
 * What "Your account" calls the browser a session signed in from, read from its User-Agent: "Chrome on
 * Linux", "Firefox on Windows", "Safari on iPhone" (docs/dashboard.md). Only names the page can show
 * truthfully; an agent it cannot read is shown as sent, cut short (the page escapes it), and none at all
 * is "Unknown device". A browser can send any User-Agent: this names what it claims to be.
 */

/** In order: Edge, Opera and the others carry "Chrome/" and "Safari/" too, Chrome carries "Safari/". */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOPiOS\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bVivaldi\//, "Vivaldi"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bHeadlessChrome\//, "Headless Chrome"],
  [/\bChromium\//, "Chromium"],
  [/\bChrome\/|\bCriOS\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/\bMSIE \d|\bTrident\//, "Internet Explorer"],
  [/^curl\//, "curl"],
];

/** In order: an iPhone's agent says "like Mac OS X", Android's says "Linux", ChromeOS's says "X11". */
const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMacintosh\b|\bMac OS X\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

/** How much of an agent that could not be read is shown. */
export const RAW_AGENT_SHOWN = 60;

function first(table: readonly (readonly [RegExp, string])[], agent: string): string | null {
  return table.find(([pattern]) => pattern.test(agent))?.[1] ?? null;
}

export function deviceName(userAgent: string): string {
  // Control characters never reach a page (a header may carry a tab; a stored row anything).
  const agent = userAgent.replace(/\p{Cc}+/gu, " ").trim();
  if (agent === "") return "Unknown device";
  const browser = first(BROWSERS, agent);
  const system = first(SYSTEMS, agent);
  if (browser !== null && system !== null) return `${browser} on ${system}`;
  if (browser !== null) return browser;
  return agent.length > RAW_AGENT_SHOWN ? `${agent.slice(0, RAW_AGENT_SHOWN - 1)}…` : agent;
}
