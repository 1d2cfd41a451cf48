import { assetUrl } from "./assets";
import { html, type Html } from "../html";

/**
 * The pages run no inline script and load nothing from elsewhere: even if some text escaped escaping,
 * the browser would refuse to run it. Writes go to the same origin's public API (`connect-src 'self'`).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

export const PAGE_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  // Vote counts change all the time, and a page is cheap to render. no-store, not no-cache: Chromium serves
  // Back and Forward from its cache without asking again unless told not to store the page, so after voting
  // on a post's page, Back showed the board's old count with the button pressed (docs/web.md).
  "cache-control": "no-store",
};

export function htmlResponse(page: Html, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(page.value, { status, headers: { ...PAGE_HEADERS, ...headers } });
}

export interface BoardRef {
  slug: string;
  name: string;
  /** Branding from the dashboard's settings (docs/dashboard.md); absent or null means the defaults. */
  accentColor?: string | null;
  logoVersion?: number | null;
}

export type Section = "posts" | "submit" | "roadmap" | "changelog";

export interface ShellOptions {
  title: string;
  description?: string;
  board?: BoardRef;
  /** The navigation entry marked as the current page. */
  section?: Section;
  body: Html;
}

export function boardPath(slug: string, rest = ""): string {
  return `/b/${encodeURIComponent(slug)}${rest}`;
}

function navigation(board: BoardRef, section: Section | undefined): Html {
  const link = (target: Section, path: string, label: string, className = "") =>
    html`<a
      href="${boardPath(board.slug, path)}"
      ${className ? html` class="${className}"` : ""}${section === target ? html` aria-current="page"` : ""}
      >${label}</a
    >`;
  return html`<nav aria-label="Board">
    ${link("posts", "", "Requests")} ${link("roadmap", "/roadmap", "Roadmap")}
    ${link("changelog", "/changelog", "Changelog")} ${link("submit", "/submit", "Submit a request", "button")}
  </nav>`;
}

/** Every page: language, viewport, title, the one stylesheet and the one deferred script. */
export function shell(options: ShellOptions): Html {
  const { board } = options;
  const title = board ? `${options.title} · ${board.name}` : options.title;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${options.description ? html`<meta name="description" content="${options.description}" />` : ""}
<link rel="icon" href="data:," />
    <link rel="stylesheet" href="${assetUrl("board.css")}">
${board?.accentColor ? html`<link rel="stylesheet" href="${boardPath(board.slug, `/brand.css?v=${board.accentColor.slice(1)}`)}" />` : ""}
${
  board
    ? html`<link
          rel="alternate"
          type="application/atom+xml"
          title="${board.name} changelog"
          href="${boardPath(board.slug, "/changelog.atom")}"
        />
        <script src="${assetUrl("board.js")}" defer></script>`
    : ""
}
</head>
<body${board ? html` data-board="${board.slug}"` : ""}>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><div class="wrap">
${
  board
    ? html`<a class="brand" href="${boardPath(board.slug)}"
          >${board.logoVersion ? html`<img class="logo" src="${boardPath(board.slug, `/logo?v=${board.logoVersion}`)}" alt="" height="28" />` : ""}<bdi
            >${board.name}</bdi
          ></a
        >${navigation(board, options.section)}`
    : html`<span class="brand">featureboard</span>`
}
</div></header>
<main id="main" class="wrap">
${options.body}
</main>
<footer class="site"><div class="wrap">Powered by featureboard</div></footer>
</body>
</html>
`;
}
