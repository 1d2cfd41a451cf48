/**
 * HTML built from tagged templates (board pages, the dashboard, emails): every interpolated value is
 * escaped unless it is already `Html` (the result of another `html` template, or text deliberately wrapped
 * in `raw`). This is what makes a
 * post titled `<img src=x onerror=alert(1)>` render as text wherever it appears.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Values a template accepts: nothing (renders empty), text, numbers, HTML, or lists of them. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for element content and for quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/**
 * Characters XML 1.0 forbids even as references (C0 controls but tab, newline and carriage return; U+FFFE,
 * U+FFFF; unpaired surrogates): one of them in a release would make the whole feed unreadable to a reader.
 */
const XML_FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- the control characters are the point of this pattern
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for an XML document (the Atom feed): as escapeHtml, without the characters XML forbids. */
export function escapeXml(text: string): string {
  return escapeHtml(text.replace(XML_FORBIDDEN, ""));
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  // `false` renders nothing so that `${condition && html`…`}` reads naturally; `true` never appears.
  if (value === null || value === undefined || typeof value === "boolean") return "";
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  for (let index = 0; index < values.length; index++) {
    out += render(values[index]!) + strings[index + 1]!;
  }
  return new Html(out);
}

/** Marks trusted markup (built by this module's callers, never user text) to be inserted as is. */
export function raw(markup: string): Html {
  return new Html(markup);
}
