import type { Transporter } from "nodemailer";
import type { Config } from "../config";
import type { Db } from "../db/connection";
import type { Logger } from "../log";
import { inTransaction, onCommit, whenCommitted } from "../db/connection";
import { describeError } from "../log";
import { findProjectById } from "../projects/service";
import {
  confirmUrl,
  htmlMessage,
  type MailBranding,
  unsubscribeUrl,
  withConfirmLink,
  withUnsubscribeFooter,
} from "./message";
import * as store from "./store";
import { hasDueMail } from "./store";
import type { MailRow } from "./store";

/** Waits before each retry of a mail the SMTP server refused; after the last one the mail is marked failed. */
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000, 24 * 3_600_000];
const BATCH = 50;
/** The safety net behind the wake-up after each commit: picks up mail left by a restart or a retry. */
const FLUSH_EVERY_MS = 10_000;

export interface MailSender {
  /** Sends everything due, then resolves; concurrent calls share one pass. */
  flush(): Promise<void>;
  /** True when an SMTP server is configured (a mail can reach someone now). */
  readonly canSend: boolean;
  /**
   * Sends one message now, without keeping it in the outbox: sign-in links, whose token must not be stored
   * in clear. Throws when no SMTP server is configured or it refuses the message.
   */
  sendNow(message: { to: string; subject: string; text: string }): Promise<void>;
  /** Starts the timer and sends what a previous run left unsent. */
  start(): void;
  stop(): void;
}

/**
 * Sends queued mail: over SMTP (nodemailer) when `FEATUREBOARD_SMTP_URL` is set, otherwise the row in
 * `mail_outbox` is the delivery and one log line shows it. Passes never overlap, so a mail is sent once
 * unless the process dies between handing it to the SMTP server and recording that (at least once).
 */
/** What the sender needs of the runtime (it is itself part of the runtime object, src/context.ts). */
export interface MailContext {
  db: Db;
  config: Pick<Config, "mail" | "publicUrl">;
  log: Logger;
}

/**
 * How long a mail server may take: nodemailer waits 2 minutes to connect, 30 s for the greeting and 10
 * minutes of silence, and mail goes one at a time, so a mail server that accepts connections and never
 * answers held a queue of 50 subscribers for 25 minutes.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * nodemailer's codes for a mail server that is down, unreachable or silent (not for a refused recipient):
 * the other mail of the pass would only wait as long again, so it waits for the next pass instead.
 */
const SERVER_UNREACHABLE = new Set(["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS"]);

function serverUnreachable(error: unknown): boolean {
  const code: unknown = error instanceof Error ? Reflect.get(error, "code") : undefined;
  return typeof code === "string" && SERVER_UNREACHABLE.has(code);
}

export function createMailSender(ctx: MailContext): MailSender {
  const { db, config, log } = ctx;
  // nodemailer loads with the first mail, not at start-up (most requests never send one).
  const smtpUrl = config.mail.smtpUrl;
  let transporter: Promise<Transporter> | null = null;
  const transportOf = (url: string) =>
    (transporter ??= import("nodemailer").then((nodemailer) =>
      nodemailer.default.createTransport({ url, ...SMTP_TIMEOUTS }),
    ));

  async function deliver(mail: MailRow): Promise<"smtp" | "outbox"> {
    if (!smtpUrl) {
      log.info("mail kept in the local outbox", {
        mailId: mail.id,
        to: mail.to_address,
        subject: mail.subject,
      });
      return "outbox";
    }
    const transport = await transportOf(smtpUrl);
    await transport.sendMail({
      from: config.mail.from,
      to: mail.to_address,
      subject: mail.subject,
      ...content(mail),
    });
    return "smtp";
  }

  /** Text, HTML and headers with the mail's links, written from the public URL as the mail leaves. */
  function content(mail: MailRow): { text: string; html: string; headers?: Record<string, string> } {
    if (mail.confirm_token !== null) {
      // A confirmation mail is the one mail an unconfirmed address gets: no list to unsubscribe from.
      const url = confirmUrl(config.publicUrl, mail.confirm_token);
      return {
        text: withConfirmLink(mail.body_text, url),
        html: htmlMessage(mail.body_text, brandingOf(mail), { confirm: url }),
      };
    }
    const url = unsubscribeUrl(config.publicUrl, mail.unsubscribe_token);
    return {
      text: withUnsubscribeFooter(mail.body_text, url),
      html: htmlMessage(mail.body_text, brandingOf(mail), { unsubscribe: url }),
      // One-click unsubscribe (RFC 8058): mail clients show their own button for it.
      headers: { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    };
  }

  /** The project's branding as it is when the mail leaves, and the request's page on a public board. */
  function brandingOf(mail: MailRow): MailBranding {
    const project = findProjectById(db, mail.project_id);
    const board = project ? `${config.publicUrl}/b/${encodeURIComponent(project.slug)}` : null;
    return {
      boardName: project?.name ?? "featureboard",
      accentColor: project?.accentColor ?? null,
      logoUrl:
        board && project?.isPublic && project.logoVersion ? `${board}/logo?v=${project.logoVersion}` : null,
      postUrl: board && project?.isPublic && mail.post_id ? `${board}/posts/${mail.post_id}` : null,
    };
  }

  /** Sends one mail; false when the mail server could not be reached, so the rest of the pass waits. */
  async function sendOne(mail: MailRow): Promise<boolean> {
    try {
      const via = await deliver(mail);
      inTransaction(db, () => store.markSent(db, mail, via, Date.now()));
      return true;
    } catch (error) {
      const delay = RETRY_DELAYS_MS[mail.attempts];
      const now = Date.now();
      const message = error instanceof Error ? error.message : String(error);
      inTransaction(db, () =>
        store.markAttemptFailed(db, mail.id, message, delay === undefined ? null : now + delay, now),
      );
      log.warn(delay === undefined ? "mail failed for good" : "mail failed; will retry", {
        mailId: mail.id,
        attempt: mail.attempts + 1,
        error: message,
      });
      return !serverUnreachable(error);
    }
  }

  async function sendDue(): Promise<void> {
    try {
      for (;;) {
        const due = store.dueMail(db, Date.now(), BATCH);
        let reachable = true;
        for (const mail of due) {
          reachable = await sendOne(mail);
          if (!reachable) break;
        }
        await whenCommitted(db);
        if (!reachable || due.length < BATCH) return;
      }
    } catch (error) {
      log.error("mail sender failed", describeError(error));
    }
  }

  // One pass at a time; a flush asked for during a pass gets one more pass after it, shared by all askers.
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  function runPass(): Promise<void> {
    running = sendDue().finally(() => {
      running = null;
    });
    return running;
  }
  function flush(): Promise<void> {
    if (queued) return queued;
    if (!running) return runPass();
    queued = running.then(() => {
      queued = null;
      return runPass();
    });
    return queued;
  }

  let timer: ReturnType<typeof setInterval> | null = null;
  let stopListening: (() => void) | null = null;
  return {
    flush,
    canSend: smtpUrl !== null,
    async sendNow(message) {
      if (!smtpUrl) throw new Error("no SMTP server is configured (FEATUREBOARD_SMTP_URL)");
      await (await transportOf(smtpUrl)).sendMail({ from: config.mail.from, ...message });
    },
    start() {
      // flush never overlaps itself (`running`); the timer never keeps the process alive.
      timer ??= setInterval(() => void flush(), FLUSH_EVERY_MS).unref();
      // Mail queued by a change leaves right after that change commits, not on the next round.
      stopListening ??= onCommit(db, () => {
        if (!running && hasDueMail(db, Date.now())) void flush();
      });
      void flush();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
      stopListening?.();
      stopListening = null;
      void transporter?.then((transport) => transport.close());
    },
  };
}
