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
}

/** Subject and body of a status-change email; the unsubscribe footer is added when it is sent. */
export function statusChangeMessage(mail: StatusChangeMail): { subject: string; text: string } {
  return {
    subject: `[${mail.boardName}] "${mail.postTitle}" is now ${statusWords(mail.status)}`,
    text: [
      `Hi ${mail.recipientName ?? "there"},`,
      "",
      `"${mail.postTitle}" on the ${mail.boardName} board moved from ${statusWords(mail.previousStatus)} ` +
        `to ${statusWords(mail.status)}.`,
      "",
      "You receive this because you requested, voted for or commented on it.",
    ].join("\n"),
  };
}

export function unsubscribeUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/email/unsubscribe/${token}`;
}

/** The body as sent: the stored text and a per-subscriber unsubscribe link. */
export function withUnsubscribeFooter(text: string, url: string): string {
  return `${text}\n\nStop emails about this post: ${url}\n`;
}
