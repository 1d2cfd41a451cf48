import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/**
 * Outgoing calls (webhooks, chat, code host, issue tracker) go to addresses users typed, so they must
 * never reach the machine's own network: loopback, private, link-local (the cloud metadata service) and
 * other special ranges are refused after DNS resolution, unless FEATUREBOARD_ALLOW_PRIVATE_TARGETS is set.
 * Bun's fetch ignores a custom DNS lookup, so the checked address is pinned by connecting to the IP itself
 * with the original Host header and TLS server name; redirects are never followed (docs/webhooks.md).
 */

export class UnsafeTargetError extends Error {}

/** Why a URL is refused before any lookup (scheme, credentials), or null when its form is acceptable. */
export function urlFormProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) {
    return "must be an https URL";
  }
  if (url.username || url.password) return "must not carry credentials";
  return null;
}

function ipv4Parts(address: string): number[] {
  return address.split(".").map(Number);
}

function isUnsafeIpv4(address: string): boolean {
  const [a = 0, b = 0, c = 0] = ipv4Parts(address);
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && c === 0) || // IETF protocol assignments
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

/** The 8 groups of an IPv6 address as numbers; an embedded dotted IPv4 tail becomes its two groups. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split("%")[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Parts(dotted[1]!);
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const parse = (part: string | undefined) =>
    part ? part.split(":").map((group) => parseInt(group, 16)) : [];
  const first = parse(head);
  const last = parse(tail);
  const zeros = tail === undefined ? [] : Array<number>(8 - first.length - last.length).fill(0);
  return [...first, ...zeros, ...last];
}

function ipv4Of(high: number, low: number): string {
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * IPv6 ranges that are private, reserved or that wrap an IPv4 address. Where a range embeds an IPv4
 * address (mapped, NAT64, 6to4) that address is what decides; translation ranges whose embedded address
 * cannot be trusted (SIIT, local-use NAT64, Teredo) are refused outright.
 */
function isUnsafeIpv6(address: string): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = ipv6Groups(address);
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (upperZero && g5 === 0xffff) return isUnsafeIpv4(ipv4Of(g6, g7)); // IPv4-mapped ::ffff:a.b.c.d
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return isUnsafeIpv4(ipv4Of(g6, g7)); // NAT64 well-known prefix 64:ff9b::/96 reaches IPv4 space
  }
  if (g0 === 0x2002) return isUnsafeIpv4(ipv4Of(g1, g2)); // 6to4 2002::/16 wraps an IPv4 address
  return (
    upperZero || // ::, ::1, IPv4-compatible and other reserved forms
    (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) || // SIIT ::ffff:0:a.b.c.d
    (g0 === 0x64 && g1 === 0xff9b && g2 === 1) || // local-use NAT64 64:ff9b:1::/48
    (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) || // discard-only 100::/64
    (g0 === 0x2001 && g1 < 0x200) || // IETF protocol assignments 2001::/23, Teredo 2001::/32 among them
    (g0 === 0x2001 && g1 === 0xdb8) || // documentation
    (g0 === 0x3fff && g1 < 0x1000) || // documentation 3fff::/20
    (g0 & 0xfe00) === 0xfc00 || // unique local, includes fd00:ec2::254 (metadata)
    (g0 & 0xffc0) === 0xfe80 || // link-local
    (g0 & 0xffc0) === 0xfec0 || // site-local (deprecated, still routed inside some networks)
    (g0 & 0xff00) === 0xff00 // multicast
  );
}

/** True for an address featureboard must not call without FEATUREBOARD_ALLOW_PRIVATE_TARGETS. */
export function isUnsafeAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isUnsafeIpv4(address);
  if (family === 6) return isUnsafeIpv6(address);
  return true;
}

/** Every address a host name resolves to. */
export type HostResolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: HostResolver = (host) => lookup(host, { all: true, verbatim: true });
let resolveHost: HostResolver = systemResolver;

/**
 * Replaces the DNS lookup every outgoing call makes, so tests can give a name any address (a public-looking
 * host that resolves to 10.0.0.1 or the metadata address). Returns the function that puts the system
 * resolver back.
 */
export function useHostResolver(resolver: HostResolver): () => void {
  resolveHost = resolver;
  return () => {
    resolveHost = systemResolver;
  };
}

export interface ResolvedTarget {
  url: URL;
  /** The checked address the call connects to. */
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the URL's host once and checks every address it has: one unsafe address refuses the whole
 * host, since a resolver could hand out the other one next time.
 */
export async function resolveTarget(raw: string, allowPrivate: boolean): Promise<ResolvedTarget> {
  const problem = urlFormProblem(raw, allowPrivate);
  if (problem) throw new UnsafeTargetError(`URL ${problem}`);
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await resolveHost(host);
    } catch {
      throw new UnsafeTargetError(`host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new UnsafeTargetError(`host ${host} does not resolve`);
  if (!allowPrivate) {
    const unsafe = addresses.find((entry) => isUnsafeAddress(entry.address));
    if (unsafe) {
      throw new UnsafeTargetError(
        `host ${host} resolves to ${unsafe.address}, a loopback, private, link-local or metadata address`,
      );
    }
  }
  const chosen = addresses[0]!;
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

export interface OutboundRequest {
  method: "POST" | "GET";
  headers: Record<string, string>;
  body?: string;
}

export interface OutboundOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /**
   * How much of a successful answer's body the caller reads, in bytes (default ANSWER_BYTES: an issue
   * tracker's or code host's JSON). A longer answer fails the call: the caller could not read it whole.
   * 0 reads none of it (a webhook: any 2xx is success, whatever it says).
   */
  answerBytes?: number;
}

/**
 * One outgoing HTTP call to a user-supplied URL, made safe: resolved and checked first, connected to the
 * checked address, never redirected (a 3xx is answered as it is, for the caller to count as a failure),
 * aborted after `timeoutMs`.
 */
export async function safeFetch(
  raw: string,
  request: OutboundRequest,
  options: OutboundOptions,
  signal?: AbortSignal,
): Promise<Response> {
  const target = await resolveTarget(raw, options.allowPrivate);
  const pinned = new URL(target.url);
  const hostHeader = target.url.host;
  pinned.hostname = target.family === 6 ? `[${target.address}]` : target.address;
  return fetch(pinned, {
    method: request.method,
    headers: { ...request.headers, host: hostHeader },
    body: request.body,
    redirect: "manual",
    signal: signal
      ? AbortSignal.any([AbortSignal.timeout(options.timeoutMs), signal])
      : AbortSignal.timeout(options.timeoutMs),
    tls: { serverName: target.url.hostname },
  });
}

/** The result of one attempt, as the delivery history records it. */
export interface CallOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The response body, for callers that read what the provider created. */
  responseText: string;
  /** How long a failed answer asked to be left alone (its Retry-After), when it said so. */
  retryAfterMs?: number;
}

/** Retry-After in seconds or as an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const MAX_ERROR_BODY = 300;
/** Of a failed answer only the start is kept (MAX_ERROR_BODY characters), so only that much is read. */
const ERROR_BODY_BYTES = 4 * 1024;
/**
 * The most of a successful answer a caller may read: GitHub's list of 100 issues (src/integrations/senders.ts)
 * is a few hundred KB. Bounded so that no target can make featureboard hold its whole answer in memory.
 */
export const ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * The first `limit` bytes of the body as text, and whether that was all of it. Read chunk by chunk and the
 * rest cancelled: a receiver answering 500 with 300 MB cost 300 MB of memory per attempt when read whole.
 */
async function readBody(response: Response, limit: number): Promise<{ text: string; whole: boolean }> {
  if (!response.body) return { text: "", whole: true };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let whole = false;
  try {
    while (size <= limit) {
      const { done, value } = await reader.read();
      if (done) {
        whole = true;
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    if (!whole) await reader.cancel().catch(() => {});
  }
  // A character cut at the limit decodes as U+FFFD: the text is only shown or, when whole, parsed.
  const text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, limit));
  return { text, whole };
}

/**
 * A failed call's reason without the target's path and query: for a chat webhook they are the secret
 * (`/services/T…/B…/<token>`, shown masked by GET), and some of Bun's network errors quote the URL they
 * fetched (`ERR_TLS_CERT_ALTNAME_INVALID fetching "https://…"`). The reason goes to the log and to the
 * delivery history.
 */
export function withoutTargetPath(reason: string, url: string): string {
  let secretPart: string;
  try {
    const parsed = new URL(url);
    secretPart = parsed.pathname + parsed.search;
  } catch {
    return reason;
  }
  return secretPart.length > 1 ? reason.replaceAll(secretPart, "/…") : reason;
}

/**
 * Makes one safe call and judges it: 2xx succeeds; a redirect, any other status, a refused target, a
 * network error or the time-out fails with a short reason. Never throws, except when `signal` aborted
 * (the worker is stopping: the attempt is left for the next start).
 */
export async function callOnce(
  url: string,
  request: OutboundRequest,
  options: OutboundOptions,
  signal?: AbortSignal,
): Promise<CallOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await safeFetch(url, request, options, signal);
    const statusCode = response.status;
    const succeeded = statusCode >= 200 && statusCode < 300;
    const limit = succeeded ? (options.answerBytes ?? ANSWER_BYTES) : ERROR_BODY_BYTES;
    let body: { text: string; whole: boolean };
    try {
      body = await readBody(response, limit);
    } catch (error) {
      // An answer the caller needs and could not read is the call's failure (a time-out among them).
      if (succeeded && limit > 0) throw error;
      body = { text: "", whole: false };
    }
    signal?.throwIfAborted();
    const responseText = body.text;
    if (succeeded && !body.whole && limit > 0) {
      const error = `HTTP ${statusCode}, but the answer is longer than ${limit} bytes`;
      return { ok: false, statusCode, error, durationMs: elapsed(), responseText: "" };
    }
    if (succeeded) return { ok: true, statusCode, error: null, durationMs: elapsed(), responseText };
    const error =
      statusCode >= 300 && statusCode < 400
        ? `redirect to ${response.headers.get("location") ?? "(no location)"} refused: redirects are never followed`
        : `HTTP ${statusCode}${responseText ? `: ${responseText.slice(0, MAX_ERROR_BODY)}` : ""}`;
    const retryAfter = retryAfterMs(response.headers.get("retry-after"), Date.now());
    return { ok: false, statusCode, error, durationMs: elapsed(), responseText, retryAfterMs: retryAfter };
  } catch (error) {
    signal?.throwIfAborted();
    const reason =
      error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
        ? `timed out after ${options.timeoutMs} ms`
        : withoutTargetPath(error instanceof Error ? error.message : String(error), url);
    return { ok: false, statusCode: null, error: reason, durationMs: elapsed(), responseText: "" };
  }
}
