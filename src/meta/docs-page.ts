import { Elysia } from "elysia";
import swaggerUiBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import swaggerUiCss from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import initScript from "./docs/init.client.js" with { type: "text" };
import type { AppContext } from "../context";
import { ERROR_CODES, ERROR_MEANINGS, isErrorCode } from "../http/errors";
import { escapeHtml } from "../html";
import { DOCS_PATH, OPENAPI_PATH } from "../http/request-info";
import { API_VERSION } from "./version";

const ASSETS = `${DOCS_PATH}/assets`;

/**
 * Swagger UI sets inline style attributes, so styles allow 'unsafe-inline'; scripts come only from this
 * origin (the assets below, embedded in the binary from the swagger-ui-dist package): the page works
 * offline and in an air-gapped install.
 */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

const META_DESCRIPTION =
  'featureboard API reference: every route, its schemas, and the "error_code" catalogue.';

/** Every error code with the anchor its `docs_url` points to (`#errors-CODE`), readable without script. */
function errorSection(): string {
  const rows = Object.keys(ERROR_CODES)
    .filter(isErrorCode)
    .map(
      (code) =>
        `<tr id="errors-${escapeHtml(code)}"><td><a href="#errors-${escapeHtml(code)}"><code>${escapeHtml(code)}</code></a></td><td>${ERROR_CODES[code]}</td><td>${escapeHtml(ERROR_MEANINGS[code])}</td></tr>`,
    )
    .join("\n");
  return `<section id="errors" class="errors">
<h2>Errors</h2>
<p>Every failure answers with the ApiError body: <code>error_code</code>, <code>message</code>,
<code>resolution_hint</code>, <code>retry</code>, <code>docs_url</code> (a link to this table), and the legacy
aliases <code>error</code> and <code>suggestion</code>.</p>
<table><thead><tr><th>error_code</th><th>HTTP status</th><th>What it means, what to do</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</section>`;
}

function docsPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="${escapeHtml(META_DESCRIPTION)}">
<title>featureboard API ${escapeHtml(API_VERSION)}</title>
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
<link rel="stylesheet" href="${ASSETS}/docs.css">
</head>
<body>
<main>
<div id="swagger-ui" data-spec-url="${escapeHtml(OPENAPI_PATH)}"></div>
${errorSection()}
</main>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script src="${ASSETS}/init.js"></script>
</body>
</html>`;
}

const DOCS_CSS = `.errors { max-width: 1460px; margin: 0 auto 48px; padding: 0 20px; font-family: sans-serif; }
.errors table { border-collapse: collapse; }
.errors td, .errors th { border-bottom: 1px solid #ddd; padding: 4px 16px 4px 0; text-align: left; }
.errors tr:target { background: #fff6d5; }`;

const ASSET_CACHE = "public, max-age=86400";

/** The API reference page and its assets, all served by this binary. */
export function docsRoutes(_ctx: AppContext) {
  let page: string | null = null;
  return new Elysia({ name: "meta.docs", detail: { hide: true } })
    .get(DOCS_PATH, () => {
      page ??= docsPage();
      return new Response(page, {
        headers: {
          "content-type": "text/html; charset=utf-8",
          "content-security-policy": DOCS_CSP,
          "x-content-type-options": "nosniff",
        },
      });
    })
    .get(
      `${ASSETS}/swagger-ui-bundle.js`,
      () =>
        new Response(Bun.file(swaggerUiBundle), {
          headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": ASSET_CACHE },
        }),
    )
    .get(
      `${ASSETS}/swagger-ui.css`,
      () =>
        new Response(Bun.file(swaggerUiCss), {
          headers: { "content-type": "text/css; charset=utf-8", "cache-control": ASSET_CACHE },
        }),
    )
    .get(
      `${ASSETS}/init.js`,
      () =>
        new Response(initScript, {
          headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": ASSET_CACHE },
        }),
    )
    .get(
      `${ASSETS}/docs.css`,
      () =>
        new Response(DOCS_CSS, {
          headers: { "content-type": "text/css; charset=utf-8", "cache-control": ASSET_CACHE },
        }),
    );
}
