import { html } from "../html";

/** Words a subscriber reads for each status, rather than the API's constants. */
const STATUS_WORDS: Record<string, string> = {
  PENDING: "pending review",
  APPROVED: "approved",
  IN_PROGRESS: "in progress",
  COMPLETE: "complete",
  CLOSED: "closed",
  ARCHIVED: "archived",
};

function statusWords(status: string): string {
  return STATUS_WORDS[status] ?? status.toLowerCase();
}

export interface StatusChangeMail {
  boardName: string;
  postTitle: string;
  previousStatus: string;
  status: string;
  recipientName: string | null;
  /** The release that shipped the request, when its publication moved it to ARCHIVED. */
  shippedIn?: { title: string; label: string | null };
  /** A team member's words sent with the change (also posted as an official reply on the request). */
  message?: { authorName: string; body: string };
}

function releaseName(release: { title: string; label: string | null }): string {
  return release.label ? `${release.title} (${release.label})` : release.title;
}

/** Subject and body of a status-change email; the unsubscribe footer is added when it is sent. */
export function statusChangeMessage(mail: StatusChangeMail): { subject: string; text: string } {
  const { shippedIn, message } = mail;
  const subject = shippedIn
    ? `[${mail.boardName}] "${mail.postTitle}" has shipped in ${releaseName(shippedIn)}`
    : `[${mail.boardName}] "${mail.postTitle}" is now ${statusWords(mail.status)}`;
  const what = shippedIn
    ? `"${mail.postTitle}" on the ${mail.boardName} board has shipped: it is part of the release ` +
      `${releaseName(shippedIn)}, on the board's changelog.`
    : `"${mail.postTitle}" on the ${mail.boardName} board moved from ${statusWords(mail.previousStatus)} ` +
      `to ${statusWords(mail.status)}.`;
  return {
    subject,
    text: [
      `Hi ${mail.recipientName ?? "there"},`,
      "",
      what,
      ...(message
        ? ["", `${message.authorName} from the ${mail.boardName} team wrote:`, "", message.body]
        : []),
      "",
      "You receive this because you requested, voted for or commented on it.",
    ].join("\n"),
  };
}

export interface ReplyMail {
  boardName: string;
  postTitle: string;
  authorName: string;
  body: string;
  recipientName: string | null;
}

/** Subject and body of the email that tells a request's subscribers the team replied. */
export function teamReplyMessage(mail: ReplyMail): { subject: string; text: string } {
  return {
    subject: `[${mail.boardName}] ${mail.authorName} replied to "${mail.postTitle}"`,
    text: [
      `Hi ${mail.recipientName ?? "there"},`,
      "",
      `${mail.authorName} from the ${mail.boardName} team replied to "${mail.postTitle}":`,
      "",
      mail.body,
      "",
      "You receive this because you requested, voted for or commented on it.",
    ].join("\n"),
  };
}

/** What the HTML part shows around the text: the project's branding and a link to the request. */
export interface MailBranding {
  boardName: string;
  accentColor: string | null;
  logoUrl: string | null;
  /** The request's public page, when the board is public and the request visible. */
  postUrl: string | null;
}

const DEFAULT_ACCENT = "#3f3fc4";

/**
 * The HTML part of a subscriber email: the same words as the text part (which is kept, for clients that
 * read text only), in paragraphs, under the board's name, logo and accent colour, with a button to the
 * request and the unsubscribe link. Inline styles only, as mail clients require.
 */
export function htmlMessage(text: string, branding: MailBranding, unsubscribe: string): string {
  const accent = branding.accentColor ?? DEFAULT_ACCENT;
  const paragraphs = text
    .split(/\n{2,}/)
    .map((paragraph) => html`<p style="margin:0 0 14px">${paragraph}</p>`);
  return html`<!doctype html>
    <html lang="en">
      <body
        style="margin:0;padding:24px;background:#f5f6f9;font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2330"
      >
        <div
          style="max-width:560px;margin:0 auto;background:#fff;border-radius:10px;border-top:4px solid ${accent};padding:24px"
        >
          <p style="margin:0 0 18px;font-weight:700;font-size:17px">
            ${branding.logoUrl ? html`<img src="${branding.logoUrl}" alt="" height="28" style="vertical-align:middle;margin-right:8px" />` : ""}${branding.boardName}
          </p>
          ${paragraphs}
          ${branding.postUrl ? html`<p style="margin:18px 0"><a href="${branding.postUrl}" style="display:inline-block;background:${accent};color:#fff;text-decoration:none;padding:10px 16px;border-radius:6px;font-weight:600">View the request</a></p>` : ""}
          <p style="margin:18px 0 0;font-size:13px;color:#545b6b">
            <a href="${unsubscribe}" style="color:#545b6b">Stop emails about this request</a>
          </p>
        </div>
      </body>
    </html>`.value;
}

export function unsubscribeUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/email/unsubscribe/${token}`;
}

/** The body as sent: the stored text and a per-subscriber unsubscribe link. */
export function withUnsubscribeFooter(text: string, url: string): string {
  return `${text}\n\nStop emails about this post: ${url}\n`;
}
