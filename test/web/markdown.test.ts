import { describe, expect, test } from "bun:test";
import { escapeHtml, html, raw } from "../../src/html";
import { renderMarkdown } from "../../src/web/markdown";

const md = (source: string) => renderMarkdown(source).value;

describe("html templates", () => {
  test("escape every interpolated value, nested lists included", () => {
    const title = `<img src=x onerror=alert(1)>`;
    // prettier-ignore
    const out = html`<h1 title="${title}">${title}</h1>${[title, html`<b>${"'&\""}</b>`]}`.value;
    expect(out).toBe(
      `<h1 title="&lt;img src=x onerror=alert(1)&gt;">&lt;img src=x onerror=alert(1)&gt;</h1>` +
        `&lt;img src=x onerror=alert(1)&gt;<b>&#39;&amp;&quot;</b>`,
    );
  });

  test("render nothing for null, undefined and booleans; raw passes trusted markup", () => {
    expect(html`${null}${undefined}${false}${true}${0}${raw("<br>")}`.value).toBe("0<br>");
    expect(escapeHtml(`<>&"'`)).toBe("&lt;&gt;&amp;&quot;&#39;");
  });
});

describe("release-note markdown", () => {
  test("headings, lists, emphasis, code and quotes", () => {
    expect(md("# New\n\nSome **bold** and *em* and `a<b>`.")).toBe(
      '<h3 dir="auto">New</h3>\n<p dir="auto">Some <strong>bold</strong> and <em>em</em> and <code>a&lt;b&gt;</code>.</p>',
    );
    expect(md("- one\n- two\n  continued\n\n1. first\n2. second")).toBe(
      '<ul><li dir="auto">one</li><li dir="auto">two continued</li></ul>\n<ol><li dir="auto">first</li><li dir="auto">second</li></ol>',
    );
    // Focusable, so that a block wider than the screen can be scrolled with the keyboard (docs/web.md).
    expect(md("```\n<script>x</script>\n```")).toBe(
      '<pre tabindex="0"><code>&lt;script&gt;x&lt;/script&gt;</code></pre>',
    );
    expect(md("> quoted *text*")).toBe(
      '<blockquote dir="auto"><p dir="auto">quoted <em>text</em></p></blockquote>',
    );
    expect(md("---")).toBe("<hr>");
    expect(md("line one\nline two")).toBe('<p dir="auto">line one<br>\nline two</p>');
  });

  test("raw HTML stays text", () => {
    const out = md(`<img src=x onerror=alert(1)>\n\n<script>alert(1)</script>`);
    expect(out).not.toContain("<img");
    expect(out).not.toContain("<script");
    expect(out).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  test("links keep only safe targets, and underscores in URLs survive emphasis", () => {
    expect(md("[docs](https://example.com/a_b_c?x=1&y=2)")).toBe(
      '<p dir="auto"><a href="https://example.com/a_b_c?x=1&amp;y=2" rel="nofollow noopener">docs</a></p>',
    );
    expect(md("[x](javascript:alert(1))")).not.toContain("<a");
    expect(md('[x](https://e.com/"onmouseover=alert(1))')).toContain(
      'href="https://e.com/&quot;onmouseover=alert(1"',
    );
    expect(md("[mail](mailto:team@example.com) [here](/b/acme)")).toContain('href="/b/acme"');
    expect(md("![chart](https://img.example/c.png)")).toBe(
      '<p dir="auto"><a href="https://img.example/c.png" rel="nofollow noopener">chart (image)</a></p>',
    );
  });

  test("placeholder characters in the source cannot forge markup", () => {
    expect(md("\uE0000\uE000 [a](https://a.example)")).toBe(
      '<p dir="auto">0 <a href="https://a.example" rel="nofollow noopener">a</a></p>',
    );
  });
});
