/**
 * HTML built from tagged templates: every interpolated value is escaped unless it is already `Html`
 * (the result of another `html` template, or text deliberately wrapped in `raw`). This is what makes a
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
