import { MantineProvider } from "@mantine/core";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { prerenderToNodeStream } from "react-dom/static";
import { describe, expect, it } from "vitest";
import "./i18n.ts";
import HighlightedCode from "./highlight.tsx";
import MarkdownRenderer, { drawMarkdown } from "./MarkdownRenderer.tsx";

/** The markdown as HTML once everything it loads lazily (the highlighter) has arrived. */
async function render(markdown: string): Promise<string> {
  const { prelude } = await prerenderToNodeStream(createElement(MantineProvider, null, createElement(MarkdownRenderer, null, markdown)));
  let html = "";
  for await (const chunk of prelude) html += String(chunk);
  return html;
}

/** The markdown (or an element holding renderers) as HTML at once, without waiting for anything lazy. */
function renderNow(markdown: string | ReactElement): string {
  return renderToStaticMarkup(createElement(MantineProvider, null, typeof markdown === "string" ? createElement(MarkdownRenderer, null, markdown) : markdown));
}

describe("markdown rendering", () => {
  it("renders GitHub-flavoured tables, task lists, strikethrough and autolinks", async () => {
    const html = await render("| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n\n~~gone~~ and https://example.org/x");
    expect(html).toContain("<table>");
    expect(html).toContain("<td>2</td>");
    const boxes = html.match(/<input[^>]*>/g) ?? [];
    expect(boxes).toHaveLength(2);
    expect(boxes.every((box) => box.includes('type="checkbox"') && box.includes('disabled=""'))).toBe(true);
    expect(boxes.map((box) => box.includes('checked=""'))).toEqual([true, false]);
    expect(boxes.map((box) => /aria-label="([^"]*)"/.exec(box)?.[1])).toEqual(["Done", "Not done"]);
    expect(html).toContain("<del>gone</del>");
    expect(html).toMatch(/<a href="https:\/\/example.org\/x"[^>]*rel="noopener noreferrer nofollow"[^>]*>https:\/\/example.org\/x<\/a>/);
  });

  it("still strips scripts, event handlers and javascript: links with GFM on", async () => {
    const html = await render(
      [
        "<script>alert(1)</script>",
        '<img src="https://example.org/a.png" onerror="alert(2)">',
        "[click](javascript:alert(3))",
        '<a href="javascript:alert(4)">raw</a>',
        "| x |\n|---|\n| <img src=x onerror=alert(5)> |",
        "- [ ] <b onclick=alert(6)>task</b>",
        "www.example.org/<script>alert(7)</script>",
      ].join("\n\n"),
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/onerror|onclick/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain("click");
    expect(html).toContain("task");
  });

  it("highlights a fenced block that names its language, its text never turned into markup", async () => {
    const html = await render("```python\nprint('<b>hi</b>')\n```");
    expect(html).toContain('<code class="hljs language-python">');
    expect(html).toContain('<span class="hljs-string">&#x27;&lt;b&gt;hi&lt;/b&gt;&#x27;</span>');
    expect(html).not.toContain("<b>");
  });

  it("draws everything but highlighted code at once: no extension loads before the text shows", () => {
    const html = renderNow("Some **bold** text\n\n| a |\n|---|\n| 1 |\n\n- [x] box ~~gone~~[^1]\n\n[^1]: note\n\n```python\nprint(1)\n```");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<td>1</td>");
    expect(html).toContain('type="checkbox"');
    expect(html).toContain("<del>gone</del>");
    expect(html).toContain('data-footnotes=""');
    // The code shows at once: as written until the highlighter has arrived, highlighted after.
    // A code block is a named tab stop, so a keyboard can scroll a long line.
    expect(html).toMatch(/<pre tabindex="0" role="group" aria-label="Code \(python\)"><code class="(hljs )?language-python">.*print.*<\/code><\/pre>/);
  });

  it("renders headings, lists, quotes, code, images, emphasis, rules and hard breaks", () => {
    const html = renderNow(
      [
        "# One",
        "### Three",
        "Setext\n---",
        "1. first\n2. second",
        "3) third\n4) fourth",
        "* a\n  * nested",
        "> quoted *em* and **strong** and ***both***",
        "`a <b> & c`",
        "```\nplain <code>\n```",
        "    indented",
        "![a *cat*](https://example.org/cat.png \"A cat\")",
        "line one  \nline two\\\nline three",
        "***",
        "www.example.org and <https://example.org/p> and admin@example.org",
      ].join("\n\n"),
    );
    expect(html).toContain("<h1>One</h1>");
    expect(html).toContain("<h3>Three</h3>");
    expect(html).toContain("<h2>Setext</h2>");
    expect(html).toContain("<ol><li>first</li><li>second</li></ol>");
    expect(html).toContain('<ol start="3"><li>third</li><li>fourth</li></ol>');
    expect(html).toContain("<ul><li>a<ul><li>nested</li></ul></li></ul>");
    expect(html).toContain("<blockquote><p>quoted <em>em</em> and <strong>strong</strong> and <em><strong>both</strong></em></p></blockquote>");
    expect(html).toContain("<code>a &lt;b&gt; &amp; c</code>");
    expect(html).toContain('<pre tabindex="0" role="group" aria-label="Code"><code>plain &lt;code&gt;</code></pre>');
    expect(html).toContain('<pre tabindex="0" role="group" aria-label="Code"><code>indented</code></pre>');
    expect(html).toContain('<img src="https://example.org/cat.png" alt="a cat" title="A cat"/>');
    expect(html).toContain("<p>line one<br/>line two<br/>line three</p>");
    expect(html).toContain("<hr/>");
    expect(html).toMatch(/<a href="http:\/\/www.example.org"[^>]*>www.example.org<\/a>/);
    expect(html).toMatch(/<a href="https:\/\/example.org\/p"[^>]*>https:\/\/example.org\/p<\/a>/);
    expect(html).toMatch(/<a href="mailto:admin@example.org"[^>]*>admin@example.org<\/a>/);
  });

  it("keeps a table's column alignment", () => {
    const html = renderNow("| l | c | r | n |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |");
    expect(html).toContain('<th style="text-align:left">l</th><th style="text-align:center">c</th><th style="text-align:right">r</th><th>n</th>');
    expect(html).toContain('<td style="text-align:left">1</td><td style="text-align:center">2</td><td style="text-align:right">3</td><td>4</td>');
  });

  it("numbers footnotes by first reference and lists them at the end, with links back, ids unique to each document", () => {
    const markdown = "Second[^b], first[^a], second again[^b].\n\n[^a]: Note *a*.\n[^b]: Note b.\n\nAfter.";
    const html = renderNow(createElement("div", null, createElement(MarkdownRenderer, null, markdown), createElement(MarkdownRenderer, null, markdown)));
    const parts = html.split('class="fs-markdown ');
    expect(parts).toHaveLength(3);
    const one = parts[1]!;
    // The list comes after the text, its heading for screen readers.
    expect(one.indexOf("After.")).toBeLessThan(one.indexOf("<section"));
    expect(one).toMatch(/<h2 id="([^"]+)footnote-label" class="fs-markdown-sr-only">Footnotes<\/h2>/);
    const prefix = /id="([^"]+)footnote-label"/.exec(one)![1]!;
    const refs = [...one.matchAll(/<sup><a href="#([^"]+)" id="([^"]+)" aria-describedby="([^"]+)" data-footnote-ref="">(\d)<\/a><\/sup>/g)].map((m) => [m[1], m[2], m[3], m[4]]);
    expect(refs).toEqual([
      [`${prefix}fn-1`, `${prefix}fnref-1`, `${prefix}footnote-label`, "1"],
      [`${prefix}fn-2`, `${prefix}fnref-2`, `${prefix}footnote-label`, "2"],
      [`${prefix}fn-1`, `${prefix}fnref-1-2`, `${prefix}footnote-label`, "1"],
    ]);
    // Note b (referenced first) is number 1, with a link back to each of its two references.
    expect(one).toContain(
      `<ol><li id="${prefix}fn-1"><p>Note b. <a href="#${prefix}fnref-1" aria-label="Back to reference 1" data-footnote-backref="">↩</a> <a href="#${prefix}fnref-1-2" aria-label="Back to reference 1-2" data-footnote-backref="">↩<sup>2</sup></a></p></li>`,
    );
    expect(one).toContain(`<li id="${prefix}fn-2"><p>Note <em>a</em>. <a href="#${prefix}fnref-2" aria-label="Back to reference 2" data-footnote-backref="">↩</a></p></li></ol>`);
    // A second document on the page has its own ids.
    expect(parts[2]).toContain('data-footnote-ref=""');
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("resolves character references in text and links, once", () => {
    const html = renderNow("AT&amp;T &lt;tag&gt; &copy; &#65;&#x42; &amp;lt; &constructor; &nosuch; [a &amp; b](https://example.org/?a=1&amp;b=2 \"x &quot;y&quot;\")");
    expect(html).toContain("AT&amp;T &lt;tag&gt; © AB &amp;lt; &amp;constructor; &amp;nosuch; ");
    expect(html).toContain('<a href="https://example.org/?a=1&amp;b=2" title="x &quot;y&quot;"');
    expect(html).toContain(">a &amp; b</a>");
  });
});

/** The rendered markdown without the styles Mantine's provider writes before it. */
function drawn(html: string): string {
  return html.slice(html.indexOf("<div"));
}

/** Every element and attribute in rendered HTML, and the URLs in its links and images. */
function inventory(html: string) {
  const tags = new Set<string>();
  const attributes = new Set<string>();
  const urls: string[] = [];
  for (const [, tag, attrs] of html.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    tags.add(tag!.toLowerCase());
    for (const [, name, value] of attrs!.matchAll(/\s+([^\s=>/]+)(?:="([^"]*)")?/g)) {
      attributes.add(`${tag}.${name!.toLowerCase()}`);
      if (name === "href" || name === "src") urls.push(value!.replaceAll("&amp;", "&"));
    }
  }
  return { tags, attributes, urls };
}

const TAGS = ["div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "li", "input", "table", "thead", "tbody", "tr", "th", "td", "pre", "code", "hr", "strong", "em", "del", "br", "a", "span", "img", "sup", "section"];
const ATTRIBUTES = ["div.class", "div.style", "ol.start", "ul.class", "ol.class", "li.class", "li.id", "input.type", "input.checked", "input.disabled", "input.aria-label", "th.style", "td.style", "code.class", "a.href", "a.title", "a.target", "a.rel", "a.id", "a.aria-describedby", "a.aria-label", "a.data-footnote-ref", "a.data-footnote-backref", "img.src", "img.alt", "img.title", "section.class", "section.data-footnotes", "h2.id", "h2.class", "span.class", "p.class", "pre.tabindex", "pre.role", "pre.aria-label"];

describe("untrusted markdown", () => {
  const attacks = [
    "<script>alert(1)</script>",
    "<SCRIPT SRC=https://evil.example/x.js></SCRIPT>",
    '<img src="https://example.org/a.png" onerror="alert(2)">',
    "text <img src=x onerror=alert(3)> inline",
    '<svg onload="alert(4)"><circle/></svg>',
    '<iframe src="https://evil.example"></iframe>',
    '<a href="javascript:alert(5)">raw link</a>',
    "<style>body{display:none}</style>",
    '<div style="position:fixed" onclick="alert(6)">overlay</div>',
    "[js](javascript:alert(7))",
    "[upper](JaVaScRiPt:alert(8))",
    "[referenced-js][r]\n\n[r]: javascript:alert(9)",
    "[encoded](&#x6a;avascript:alert(10))",
    "[encoded colon](javascript&#58;alert(11))",
    "[tab](<java\tscript:alert(12)>)",
    "<javascript:alert(13)>",
    "[vb](vbscript:msgbox(14))",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxNSk8L3NjcmlwdD4=)",
    "![data image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMTYpPg==)",
    "![js image](javascript:alert(17))",
    '[title](https://example.org "x\\" onmouseover=\\"alert(18)")',
    "[**bold _and em_ <img src=x onerror=alert(19)>**](https://example.org/nested)",
    "[*em link*](javascript:alert(20))",
    "**[bold link](javascript:alert(21))**",
    "| <script>alert(22)</script> |\n|---|\n| [x](javascript:alert(23)) |",
    "- [ ] <b onclick=alert(24)>task</b>",
    "www.example.org/<script>alert(25)</script>",
    "```html\n<script>alert(26)</script>\n```",
    "`<img src=x onerror=alert(27)>`",
    "[^x]\n\n[^x]: <img src=x onerror=alert(28)> [n](javascript:alert(29))",
  ];

  it("draws only whitelisted elements and attributes, whatever the input", async () => {
    const html = drawn(await render(attacks.join("\n\n")));
    const { tags, attributes, urls } = inventory(html);
    expect([...tags].filter((tag) => !TAGS.includes(tag))).toEqual([]);
    expect([...attributes].filter((attribute) => !ATTRIBUTES.includes(attribute))).toEqual([]);
    expect(urls.filter((url) => !/^(https?:\/\/|#|\/)/.test(url))).toEqual([]);
    expect(html).not.toMatch(/<(script|iframe|svg|style)/i);
  });

  it("keeps the text of refused links and images, and the text between dropped tags", async () => {
    const html = drawn(await render(attacks.join("\n\n")));
    for (const text of ["<span>js</span>", "<span>upper</span>", "<span>referenced-js</span>", "<span>encoded</span>", "<span>encoded colon</span>", "<span>tab</span>", "<span>javascript:alert(13)</span>", "<span>vb</span>", "<span>data</span>", "data image", "js image", "raw link", "task"]) {
      expect(html).toContain(text);
    }
    expect(html).toContain("<span><em>em link</em></span>");
    expect(html).toContain("<strong><span>bold link</span></strong>");
    // Emphasis inside a link stays inside it; a tag in the link text is dropped.
    expect(html).toMatch(/<a href="https:\/\/example.org\/nested"[^>]*><strong>bold <em>and em<\/em> <\/strong><\/a>/);
    // A title is an attribute value, never more attributes.
    expect(html).toContain('title="x&quot; onmouseover=&quot;alert(18)"');
    // Code shows markup as text.
    expect(html).toContain("<code>&lt;img src=x onerror=alert(27)&gt;</code>");
    expect(html).toMatch(/<code class="hljs language-html">.*&lt;.*script.*&gt;/s);
  });

  it("shows markdown nested deeper than any document needs as plain text, without overflowing", () => {
    for (const markdown of ["> ".repeat(20_000) + "deep", "- ".repeat(20_000) + "deep", "1. ".repeat(10_000) + "deep", ">".repeat(50_000) + "deep", Array.from({ length: 200 }, (_, i) => `${"  ".repeat(i)}- deep`).join("\n")]) {
      const html = renderNow(markdown);
      expect(html).toContain('<p class="fs-markdown-plain">');
      expect(html).toContain("deep");
    }
    // Nesting the lexer takes but drawing would not: the inner part shows as written.
    const html = renderNow("*".repeat(2_000) + "deep" + "*".repeat(2_000));
    expect(html).toContain("deep");
    expect((html.match(/<em>|<strong>/g) ?? []).length).toBeLessThanOrEqual(32);
    // Ordinary nesting is drawn.
    expect(renderNow("> > > - - quoted list")).toContain("<blockquote><blockquote><blockquote><ul><li><ul><li>quoted list</li></ul></li></ul></blockquote></blockquote></blockquote>");
  });

  it("draws a huge document in time that grows linearly with its size", () => {
    const section = (i: number) =>
      [
        `## Part ${i}`,
        `Some *emphasis*, **strong**, ~~gone~~, \`code\`, a [link](https://example.org/${i}), https://example.org/bare, www.example.org, a@example.org, snake_case_name, 2*3*4, a < b & c.[^n${i}]`,
        "| a | b |\n|:-|-:|\n| 1 | 2 |",
        "- [x] done\n- [ ] open\n  - nested",
        "> quoted\n> text <b>raw</b>",
        "```\nplain code\n```",
        `[^n${i}]: note ${i}`,
      ].join("\n\n");
    const document = (sections: number) => Array.from({ length: sections }, (_, i) => section(i)).join("\n\n");
    // Processor time, not wall time: other work on the machine does not count.
    const time = (markdown: string) => {
      const start = process.cpuUsage();
      drawMarkdown(markdown, "doc-");
      const { user, system } = process.cpuUsage(start);
      return user + system;
    };
    const small = document(50);
    const large = document(400);
    expect(large.length).toBeGreaterThan(125_000);
    // The fastest of runs taken in turns; lexing and building the elements is measured (React's
    // drawing of elements is its own).
    let smallBest = Infinity;
    let largeBest = Infinity;
    for (let run = 0; run < 3; run++) {
      smallBest = Math.min(smallBest, time(small));
      largeBest = Math.min(largeBest, time(large));
    }
    // Eight times the text: about eight times the time (a busy machine adds some); a quadratic
    // renderer would take 64.
    expect(largeBest / smallBest).toBeLessThan(32);
  }, 120_000);
});

describe("code highlighting", () => {
  it("wraps tokens in class-named spans and never turns the code into markup", () => {
    const html = renderToStaticMarkup(createElement(HighlightedCode, { language: "py", code: "def f():\n    return '<script>x</script>'  # note" }));
    expect(html).toMatch(/^<code class="hljs language-py">/);
    expect(html).toContain('<span class="hljs-keyword">def</span>');
    expect(html).toContain('<span class="hljs-comment"># note</span>');
    expect(html).toContain("&lt;script&gt;x&lt;/script&gt;");
    expect(html).not.toContain("<script>");
  });

  it("leaves a language it does not know plain", () => {
    const html = renderToStaticMarkup(createElement(HighlightedCode, { language: "brainfuck", code: "+[-->]" }));
    expect(html).toBe('<code class="language-brainfuck">+[--&gt;]</code>');
  });
});
