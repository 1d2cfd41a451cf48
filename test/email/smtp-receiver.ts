import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** Envelope recipients, as the SMTP session saw them. */
  to: string[];
  /** Header names in lower case, folded lines joined. */
  headers: Record<string, string>;
  /** The decoded text body (the text/plain part of a multipart message). */
  text: string;
  /** The decoded text/html part, when the message has one. */
  html: string | null;
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding === "quoted-printable") {
    const bytes = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=), which nodemailer uses for long subjects. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeBody(text.replace(/_/g, " "), "quoted-printable"),
    );
}

function parseEntity(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = decodeHeader(line.slice(colon + 1).trim());
  }
  return { headers, body: raw.slice(split + 4) };
}

function decoded(entity: { headers: Record<string, string>; body: string }): string {
  return decodeBody(entity.body, entity.headers["content-transfer-encoding"]).replace(/\r\n/g, "\n");
}

export function parseMail(raw: string, to: string[]): ReceivedMail {
  const message = parseEntity(raw);
  const boundary = /multipart\/[a-z]+;.*boundary="?([^";]+)"?/i.exec(
    message.headers["content-type"] ?? "",
  )?.[1];
  if (!boundary) return { to, headers: message.headers, text: decoded(message), html: null };
  // multipart/alternative: the parts between the boundaries, each an entity of its own.
  const parts = message.body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => parseEntity(part.replace(/^\r\n/, "")));
  const of = (type: string) => parts.find((part) => (part.headers["content-type"] ?? "").startsWith(type));
  const text = of("text/plain");
  const html = of("text/html");
  return {
    to,
    headers: message.headers,
    text: text ? decoded(text).replace(/\n$/, "") : "",
    html: html ? decoded(html) : null,
  };
}

export interface SmtpReceiver {
  url: string;
  mail: ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server on a loopback port (the `smtp-server` package) that keeps every message it accepts. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mail: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: no certificate to trust.
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((address) => address.address);
        mail.push(parseMail(Buffer.concat(chunks).toString("utf8"), to));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mail,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
