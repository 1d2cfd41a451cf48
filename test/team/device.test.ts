import { expect, test } from "bun:test";
import { deviceName, RAW_AGENT_SHOWN } from "../../src/team/device";

// User-Agents as the browsers send them (each browser's own current form), and what "Your account" calls
// them (docs/dashboard.md).
const AGENTS: [string, string][] = [
  [
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
    "Chrome on Linux",
  ],
  [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
    "Chrome on Windows",
  ],
  ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0", "Firefox on Windows"],
  ["Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0", "Firefox on Linux"],
  [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    "Safari on iPhone",
  ],
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
    "Safari on macOS",
  ],
  [
    "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1",
    "Chrome on iPad",
  ],
  [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15",
    "Firefox on iPhone",
  ],
  [
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36",
    "Chrome on Android",
  ],
  [
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
    "Samsung Internet on Android",
  ],
  [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.56",
    "Edge on Windows",
  ],
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0",
    "Opera on macOS",
  ],
  [
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
    "Chrome on ChromeOS",
  ],
  [
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36",
    "Headless Chrome on Linux",
  ],
  ["curl/8.5.0", "curl"],
];

test("a browser's User-Agent reads as its browser on its system", () => {
  for (const [agent, name] of AGENTS) expect({ agent, name: deviceName(agent) }).toEqual({ agent, name });
});

test("an agent that cannot be read is shown as sent, cut short; none at all is an unknown device", () => {
  expect(deviceName("")).toBe("Unknown device");
  expect(deviceName("   ")).toBe("Unknown device");
  expect(deviceName("MyFeedbackSync/2.1")).toBe("MyFeedbackSync/2.1");
  const long = `Bot ${"x".repeat(200)}`;
  const shown = deviceName(long);
  expect(shown.length).toBe(RAW_AGENT_SHOWN);
  expect(shown.endsWith("…")).toBe(true);
  expect(long.startsWith(shown.slice(0, -1))).toBe(true);
  // A system alone names no browser: the agent as sent says more than "on Linux" would.
  expect(deviceName("SomeApp/1.0 (Linux)")).toBe("SomeApp/1.0 (Linux)");
});

test("control characters never reach the page; markup stays text for the page to escape", () => {
  expect(deviceName("evil\u0000agent\r\nX-Injected: 1")).toBe("evil agent X-Injected: 1");
  // Returned as it came: the page's html template escapes it (src/html.ts).
  expect(deviceName("<script>alert(1)</script>")).toBe("<script>alert(1)</script>");
});
