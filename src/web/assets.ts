import boardCss from "./assets/board.css" with { type: "text" };
import boardScript from "./assets/board.client.js" with { type: "text" };
import widgetScript from "./assets/widget.client.js" with { type: "text" };
import visitorMessages from "./assets/visitor-messages.client.js" with { type: "text" };
import { EMAIL_CONFIRMATION_NOTE } from "../email/message";
import { LIMITS } from "../http/limits";
import { plural } from "../plural";
import { KEY_PREFIX } from "../projects/schema";

/** A static file the binary carries: its text, its type, and a short content hash for cache busting. */
export interface Asset {
  body: string;
  contentType: string;
  version: string;
}

const INCLUDE_VISITOR_MESSAGES = "  // @include visitor-messages.client.js\n";
const INCLUDE_LIMITS = "  // @include limits\n";
/** The field limits the widget's form checks before sending: read from LIMITS, as every surface does. */
const WIDGET_LIMITS = {
  postTitleLength: LIMITS.postTitleLength,
  postDescriptionLength: LIMITS.postDescriptionLength,
  emailLength: LIMITS.emailLength,
};

/**
 * The board's and the widget's scripts with the visitor wording of API errors (visitor-messages.client.js)
 * and the pages' own `plural` ("1 vote", "3 votes", src/plural.ts) written into them where they say so: one
 * wording for both, and each stays one file a page loads. `plural` is self-contained, so its source text
 * runs as is in the browser.
 */
function withVisitorMessages(script: string): string {
  if (!script.includes(INCLUDE_VISITOR_MESSAGES)) throw new Error("a client script lost its include line");
  return script.replace(INCLUDE_VISITOR_MESSAGES, () => `${visitorMessages}\n${plural.toString()}\n`);
}

function asset(body: string, contentType: string): Asset {
  const version = new Bun.CryptoHasher("sha256").update(body).digest("hex").slice(0, 12);
  return { body, contentType, version };
}

export const ASSETS_PATH = "/b/_assets";

/** Served under ASSETS_PATH; `_` cannot start a project slug, so these never shadow a board. */
export const BOARD_ASSETS: Record<string, Asset> = {
  "board.css": asset(boardCss, "text/css; charset=utf-8"),
  "board.js": asset(withVisitorMessages(boardScript), "text/javascript; charset=utf-8"),
};

/** The field limits, and the key prefixes the widget tells apart (a secret key in a page is refused). */
function withLimits(script: string): string {
  if (!script.includes(INCLUDE_LIMITS)) throw new Error("the widget script lost its limits line");
  return script.replace(
    INCLUDE_LIMITS,
    () =>
      `  var LIMITS = ${JSON.stringify(WIDGET_LIMITS)};\n  var KEY_PREFIX = ${JSON.stringify(KEY_PREFIX)};\n` +
      `  var EMAIL_CONFIRMATION_NOTE = ${JSON.stringify(EMAIL_CONFIRMATION_NOTE)};\n`,
  );
}

export const WIDGET_SCRIPT = asset(
  withLimits(withVisitorMessages(widgetScript)),
  "text/javascript; charset=utf-8",
);

export function assetUrl(name: keyof typeof BOARD_ASSETS & string): string {
  return `${ASSETS_PATH}/${name}?v=${BOARD_ASSETS[name]!.version}`;
}
