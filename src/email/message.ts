import { html } from "../html";

/**
 * Said under every email field of the board and the widget (docs/payments-and-email.md, "Confirming an
 * email"), so a visitor knows to look for the confirmation mail: a new address, and a known one asking
 * about another request, each get one. Worded the same for both, since no answer tells which.
 */
export const EMAIL_CONFIRMATION_NOTE =
  "We email you a link to confirm first; updates about this request follow once you confirm.";

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

export interface ConfirmationMail {
  boardName: string;
  /** The request the address was typed with. */
  postTitle: string;
  recipientName: string | null;
  /**
   * The address is confirmed already: it was typed again on the board with a request the person does not
   * follow yet, and confirming subscribes them to it (docs/payments-and-email.md, "Confirming an email").
   */
  addressConfirmed?: boolean;
}

/**
 * Subject and body of the one mail an address typed on the public board gets before its owner confirms it
 * (docs/payments-and-email.md, "Confirming an email"): who asked, what confirming does, that ignoring it
 * means no mail. The link is added when it is sent (withConfirmLink), as the unsubscribe link is.
 */
export function confirmationMessage(mail: ConfirmationMail): { subject: string; text: string } {
  if (mail.addressConfirmed === true) {
    return {
      subject: `[${mail.boardName}] Confirm to get updates about "${mail.postTitle}"`,
      text: [
        `Hi ${mail.recipientName ?? "there"},`,
        "",
        `You asked on the ${mail.boardName} board for updates about "${mail.postTitle}": ` +
          "this address was given there with a vote or a request.",
        "",
        `Confirm to get them: an email when the request's status changes or the ${mail.boardName} team replies to it.`,
        "",
        "If it was not you, ignore this email: nothing changes, and this address gets no mail about that request.",
      ].join("\n"),
    };
  }
  return {
    subject: `[${mail.boardName}] Confirm your email for "${mail.postTitle}"`,
    text: [
      `Hi ${mail.recipientName ?? "there"},`,
      "",
      `This address was given on the ${mail.boardName} feedback board with the request "${mail.postTitle}".`,
      "",
      `Confirm it to get an email when the request's status changes or the ${mail.boardName} team replies to it.`,
      "",
      "If it was not you, or you would rather not hear, ignore this email: " +
        "an address that is not confirmed gets no mail from the board.",
    ].join("\n"),
  };
}

export function confirmUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/email/confirm/${token}`;
}

/** The body of a confirmation mail as sent: the stored text and its link. */
export function withConfirmLink(text: string, url: string): string {
  return `${text}\n\nConfirm your email: ${url}\n`;
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

/** A subscriber mail's unsubscribe link, or a confirmation mail's Confirm button (which has no unsubscribe). */
export type MailLinks = { unsubscribe: string } | { confirm: string };

/**
 * The HTML part of an email: the same words as the text part (which is kept, for clients that read text
 * only), in paragraphs, under the board's name, logo and accent colour, with a button (to the request, or
 * Confirm on a confirmation mail) and the unsubscribe link. Inline styles only, as mail clients require.
 */
export function htmlMessage(text: string, branding: MailBranding, links: MailLinks): string {
  const accent = branding.accentColor ?? DEFAULT_ACCENT;
  const button =
    "confirm" in links
      ? { href: links.confirm, label: "Confirm your email" }
      : branding.postUrl
        ? { href: branding.postUrl, label: "View the request" }
        : null;
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
          ${button ? html`<p style="margin:18px 0"><a href="${button.href}" style="display:inline-block;background:${accent};color:#fff;text-decoration:none;padding:10px 16px;border-radius:6px;font-weight:600">${button.label}</a></p>` : ""}
          ${"unsubscribe" in links ? html`<p style="margin:18px 0 0;font-size:13px;color:#545b6b"><a href="${links.unsubscribe}" style="color:#545b6b">Stop emails about this request</a></p>` : ""}
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
