import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { describeUnsubscribe, unsubscribe } from "./service";
import { LIMITS } from "../http/limits";

const TokenParams = t.Object({ token: t.String({ minLength: 1, maxLength: LIMITS.linkTokenLength }) });

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}
button{font:inherit;padding:.5rem 1rem;cursor:pointer}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}

const UNKNOWN_LINK = () =>
  page(404, "Link not found", "<p>This unsubscribe link is unknown, or its post no longer exists.</p>");

/**
 * The link at the foot of every email. GET only shows a confirmation button, because mail scanners open
 * links; the POST (the button, or a mail client's one-click unsubscribe, RFC 8058) unsubscribes.
 */
export function unsubscribeRoutes(ctx: AppContext) {
  const { db } = ctx;
  // Pages for people, not API operations: kept out of the OpenAPI document.
  const detail = { hide: true };
  return new Elysia({ prefix: "/email/unsubscribe" })
    .get(
      "/:token",
      ({ params }) => {
        const target = describeUnsubscribe(db, params.token);
        if (!target) return UNKNOWN_LINK();
        const title = escapeHtml(target.postTitle);
        if (target.already) {
          return page(200, "Unsubscribed", `<p>You already get no more emails about “${title}”.</p>`);
        }
        return page(
          200,
          "Unsubscribe",
          `<p>Stop emails about “${title}”?</p><form method="post"><button type="submit">Unsubscribe</button></form>`,
        );
      },
      {
        params: TokenParams,
        detail: {
          ...detail,
          summary: "Unsubscribe page (HTML)",
          description: "Shows a confirmation button.",
        },
      },
    )
    .post(
      "/:token",
      ({ params }) => {
        const result = unsubscribe(db, params.token);
        if (!result) return UNKNOWN_LINK();
        return page(
          200,
          "Unsubscribed",
          `<p>You will get no more emails about “${escapeHtml(result.postTitle)}”.</p>`,
        );
      },
      {
        params: TokenParams,
        // The button sends a form, a one-click client sends List-Unsubscribe=One-Click: read as text (the
        // API's JSON parser would refuse it) and ignored.
        parse: "text",
        detail: {
          ...detail,
          summary: "Unsubscribe (one-click)",
          description: "Stops emails about the post.",
        },
      },
    );
}
