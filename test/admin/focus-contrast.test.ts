import { expect, test } from "bun:test";
import type { Locator } from "playwright-core";
import { describeInBrowser } from "../support/browser";
import { memberInBrowser, openSettingsScreen } from "../support/dashboard";

// The dashboard's focus ring is at least 3:1 against what it is drawn on (WCAG 1.4.11, non-text contrast):
// the amber one was about 2.2:1 on the white page (docs/dashboard.md, "Focus").

/** WCAG's contrast ratio of two CSS colours as Chromium computes them ("rgb(…)" / "rgba(…)"). */
function contrast(first: string, second: string): number {
  const luminance = (colour: string) => {
    const [r = 0, g = 0, b = 0] = (colour.match(/[\d.]+/g) ?? []).map(Number);
    const linear = (value: number) => {
      const v = value / 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const [lighter, darker] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/**
 * Focuses the element (on a page that saw no click, so Chromium draws it as keyboard focus, `:focus-visible`)
 * and reads its outline and the background the outline is drawn on:
 * the ring sits outside the element (outline-offset), so on the nearest painted background of its parent.
 */
async function ringOf(element: Locator) {
  await element.focus();
  return element.evaluate((focused) => {
    const style = getComputedStyle(focused);
    let behind = "rgb(255, 255, 255)";
    for (let node = focused.parentElement; node; node = node.parentElement) {
      const colour = getComputedStyle(node).backgroundColor;
      const alpha = Number(colour.match(/rgba\([^)]*,\s*([\d.]+)\)/)?.[1] ?? "1");
      if (alpha > 0) {
        behind = colour;
        break;
      }
    }
    return {
      focusVisible: focused.matches(":focus-visible"),
      style: style.outlineStyle,
      width: Number.parseFloat(style.outlineWidth),
      colour: style.outlineColor,
      behind,
    };
  });
}

describeInBrowser("the dashboard's focus ring in Chromium", (served) => {
  test("a focused header link and a focused button on the page show a ring at least 3:1 against what they sit on", async () => {
    const { t, server, browser } = served();
    const page = await memberInBrowser(browser, t, server.url, { email: "keys@example.com", role: "admin" });
    await openSettingsScreen(page, "Webhooks");
    // Loaded afresh, with no click since, so focus moved by the page is shown as keyboard focus is.
    await page.reload();

    const inHeader = await ringOf(
      page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Inbox" }),
    );
    expect(inHeader.focusVisible).toBe(true);
    expect(inHeader.style).toBe("solid");
    expect(inHeader.width).toBeGreaterThanOrEqual(2);
    // The header is dark: the ring is read against it.
    expect(contrast(inHeader.behind, "rgb(255, 255, 255)")).toBeGreaterThan(10);
    expect(contrast(inHeader.colour, inHeader.behind)).toBeGreaterThanOrEqual(3);

    const onPage = await ringOf(page.getByRole("button", { name: "Add endpoint" }));
    expect(onPage.focusVisible).toBe(true);
    expect(onPage.style).toBe("solid");
    expect(onPage.width).toBeGreaterThanOrEqual(2);
    expect(contrast(onPage.colour, onPage.behind)).toBeGreaterThanOrEqual(3);
    // And against the white of the page's cards and tables, wherever a control sits on them.
    expect(contrast(onPage.colour, "rgb(255, 255, 255)")).toBeGreaterThanOrEqual(3);
    await page.context().close();
  }, 60_000);
});
