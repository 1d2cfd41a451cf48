import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { confirmEmail, type ConfirmationPage, describeConfirmation } from "./confirmation";
import { describeUnsubscribe, type MailBoard, unsubscribe } from "./service";
import { LIMITS } from "../http/limits";
import { plural } from "../plural";

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

/**
 * A link back to the board the mail came from, under what a link's page says: the page is a dead end
 * otherwise. None for a board that is not public (its pages answer 404).
 */
function backToBoard(board: MailBoard): string {
  if (board.publicSlug === null) return "";
  return `<p><a href="/b/${encodeURIComponent(board.publicSlug)}">Go to the ${escapeHtml(board.name)} board</a></p>`;
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
          return page(
            200,
            "Unsubscribed",
            `<p>You already get no more emails about “${title}”.</p>${backToBoard(target.board)}`,
          );
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
          `<p>You will get no more emails about “${escapeHtml(result.postTitle)}”.</p>${backToBoard(result.board)}`,
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

const UNKNOWN_CONFIRMATION = () =>
  page(
    404,
    "Link not found",
    "<p>This confirmation link is unknown or has expired (links work for 7 days). " +
      "Nothing was confirmed: this address gets no mail from the board.</p>",
  );

/**
 * What the address hears about, as the subject of "changes status": “Dark mode” on the Acme board, “Dark
 * mode” and 2 other requests on the Acme board, or the Acme board alone when no request is named.
 */
function whatAbout(target: ConfirmationPage): { words: string; verb: string } {
  const board = `the ${escapeHtml(target.board.name)} board`;
  const { about } = target;
  if (about === null) return { words: board, verb: "changes" };
  const title = `“${escapeHtml(about.title)}”`;
  if (about.others === 0) return { words: `${title} on ${board}`, verb: "changes" };
  return { words: `${title} and ${plural(about.others, "other request")} on ${board}`, verb: "change" };
}

/** "when “Dark mode” on the Acme board changes status or the team replies" */
function whenItChanges(target: ConfirmationPage): string {
  const { words, verb } = whatAbout(target);
  return `when ${words} ${verb} status or the team replies`;
}

function alreadyConfirmed(target: ConfirmationPage): Response {
  // Without a request the person follows, the page claims no mail it would not send.
  const body =
    target.about === null
      ? "<p>Your email is already confirmed.</p>"
      : `<p>Your email is already confirmed: you get an email ${whenItChanges(target)}.</p>`;
  return page(200, "Email already confirmed", body + backToBoard(target.board));
}

/**
 * The link of the confirmation mail an email typed on the public board gets (docs/payments-and-email.md,
 * "Confirming an email"). As for unsubscribing, GET only shows a Confirm button, because mail scanners open
 * links; the POST (the button) confirms.
 */
export function confirmEmailRoutes(ctx: AppContext) {
  const { db } = ctx;
  // Pages for people, not API operations: kept out of the OpenAPI document.
  const detail = { hide: true };
  return new Elysia({ prefix: "/email/confirm" })
    .get(
      "/:token",
      ({ params }) => {
        const target = describeConfirmation(db, params.token);
        if (!target) return UNKNOWN_CONFIRMATION();
        if (target.already) return alreadyConfirmed(target);
        return page(
          200,
          "Confirm your email",
          `<p>Get an email ${whenItChanges(target)}?</p>` +
            '<form method="post"><button type="submit">Confirm</button></form>' +
            "<p>If you did not ask for this, close this page: without confirmation this address gets no mail.</p>",
        );
      },
      {
        params: TokenParams,
        detail: {
          ...detail,
          summary: "Email confirmation page (HTML)",
          description: "Shows a Confirm button.",
        },
      },
    )
    .post(
      "/:token",
      ({ params }) => {
        const result = confirmEmail(db, params.token);
        if (!result) return UNKNOWN_CONFIRMATION();
        if (result.already) return alreadyConfirmed(result);
        return page(
          200,
          "Email confirmed",
          `<p>Thank you: your email is confirmed. You will get an email ${whenItChanges(result)}.</p>` +
            backToBoard(result.board),
        );
      },
      {
        params: TokenParams,
        // The button sends a form: read as text (the API's JSON parser would refuse it) and ignored.
        parse: "text",
        detail: { ...detail, summary: "Confirm an email", description: "Confirms the link's email address." },
      },
    );
}
