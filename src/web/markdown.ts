import { escapeHtml, Html } from "../html";

/**
 * A small markdown renderer for release notes, safe by construction: the source is escaped before any
 * markup is added, so raw HTML in a release shows as text; links keep only http(s), mailto, and
 * same-site targets; images become links (the pages' Content-Security-Policy loads no remote images).
 *
 * Blocks: headings (`#` renders as h3, since a release's own title is the h2), paragraphs, `-`/`*`/`+`
 * and numbered lists, `>` quotes, fenced code, `---` rules. Inline: code spans, links, images,
 * `**strong**`, `*emphasis*` and `_emphasis_`. Every block of text takes its direction from its own first
 * strong character (`dir="auto"`), so a right-to-left paragraph reads right in left-to-right notes, and
 * an unclosed override (U+202E) stops at its block (docs/web.md).
 */
export function renderMarkdown(source: string): Html {
  return new Html(renderBlocks(source.replace(/\r\n?/g, "\n").split("\n")));
}

const SAFE_URL = /^(https?:\/\/|mailto:|\/|#)/i;
/** Placeholders for finished inline markup: a private-use character, stripped from the source first. */
const TOKEN = /\uE000(\d+)\uE000/g;

function renderInline(text: string): string {
  const finished: string[] = [];
  const hold = (markup: string) => `\uE000${finished.push(markup) - 1}\uE000`;
  let out = text.replace(/\uE000/g, "");
  // Code spans first: nothing inside them is markup.
  out = out.replace(/`([^`]+)`/g, (_, code: string) => hold(`<code>${escapeHtml(code)}</code>`));
  out = out.replace(/(!?)\[([^\]]*)\]\(([^)\s]+)\)/g, (whole, bang: string, label: string, url: string) => {
    if (!SAFE_URL.test(url)) return whole;
    const text = label || url;
    const shown = bang ? `${text} (image)` : text;
    return hold(`<a href="${escapeHtml(url)}" rel="nofollow noopener">${escapeHtml(shown)}</a>`);
  });
  out = escapeHtml(out);
  out = out
    .replace(/\*\*(?=\S)(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/__(?=\S)(.+?)__/g, "<strong>$1</strong>");
  out = out
    .replace(/(^|[^*\w])\*(?=\S)([^*]+?)\*(?!\w)/g, "$1<em>$2</em>")
    .replace(/(^|[^_\w])_(?=\S)([^_]+?)_(?!\w)/g, "$1<em>$2</em>");
  return out.replace(TOKEN, (_, index: string) => finished[Number(index)]!);
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;

function renderBlocks(lines: string[]): string {
  const out: string[] = [];
  let index = 0;
  const isBlank = (line: string | undefined) => line === undefined || line.trim() === "";
  const startsBlock = (line: string) =>
    HEADING.test(line) ||
    FENCE.test(line) ||
    BULLET.test(line) ||
    NUMBERED.test(line) ||
    QUOTE.test(line) ||
    RULE.test(line);

  while (index < lines.length) {
    const line = lines[index]!;
    if (isBlank(line)) {
      index++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const code: string[] = [];
      index++;
      while (index < lines.length && !lines[index]!.trimStart().startsWith(fence[1]!))
        code.push(lines[index++]!);
      index++;
      // A line of code wider than the screen scrolls sideways inside its block; the block takes the
      // keyboard focus so that it can be scrolled without a mouse where the browser does not make
      // scrollers focusable itself (Safari, Chromium before 130) (docs/web.md).
      out.push(`<pre tabindex="0"><code>${escapeHtml(code.join("\n"))}</code></pre>`);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = Math.min(6, heading[1]!.length + 2);
      out.push(`<h${level} dir="auto">${renderInline(heading[2]!)}</h${level}>`);
      index++;
      continue;
    }
    if (RULE.test(line)) {
      out.push("<hr>");
      index++;
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length && QUOTE.test(lines[index]!)) quoted.push(QUOTE.exec(lines[index++]!)![1]!);
      out.push(`<blockquote dir="auto">${renderBlocks(quoted)}</blockquote>`);
      continue;
    }
    const listKind = BULLET.test(line) ? BULLET : NUMBERED.test(line) ? NUMBERED : null;
    if (listKind) {
      const items: string[] = [];
      while (index < lines.length && !isBlank(lines[index])) {
        const item = listKind.exec(lines[index]!);
        if (item) items.push(item[1]!);
        else if (items.length > 0 && !startsBlock(lines[index]!))
          items[items.length - 1] += ` ${lines[index]!.trim()}`;
        else break;
        index++;
      }
      const tag = listKind === BULLET ? "ul" : "ol";
      out.push(
        `<${tag}>${items.map((item) => `<li dir="auto">${renderInline(item)}</li>`).join("")}</${tag}>`,
      );
      continue;
    }
    const paragraph: string[] = [];
    while (
      index < lines.length &&
      !isBlank(lines[index]) &&
      (paragraph.length === 0 || !startsBlock(lines[index]!))
    )
      paragraph.push(lines[index++]!.trim());
    out.push(`<p dir="auto">${paragraph.map(renderInline).join("<br>\n")}</p>`);
  }
  return out.join("\n");
}
