// Helpers for tests of the team dashboard: forms posted as a browser posts them, the session cookie and
// the CSRF token a page carries.

/** Posts a form as a browser would: urlencoded, with the session cookie when given. */
export async function postForm(url: string, fields: Record<string, string>, cookie?: string) {
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
}

export function sessionCookieOf(response: Response): string {
  const header = response.headers.get("set-cookie") ?? "";
  const match = /fb_session=([^;]+)/.exec(header);
  if (!match) throw new Error(`no session cookie in: ${header}`);
  return `fb_session=${match[1]}`;
}

export async function csrfOf(base: string, cookie: string): Promise<string> {
  const inbox = await (await fetch(`${base}/admin`, { headers: { cookie } })).text();
  const match = /name="csrf" value="([^"]+)"/.exec(inbox);
  if (!match) throw new Error("no CSRF token on the inbox page");
  return match[1]!;
}
