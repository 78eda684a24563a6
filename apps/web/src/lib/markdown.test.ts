import { MantineProvider } from "@mantine/core";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { prerenderToNodeStream } from "react-dom/static";
import { describe, expect, it } from "vitest";
import "./i18n.ts";
import HighlightedCode from "./highlight.tsx";
import MarkdownRenderer from "./MarkdownRenderer.tsx";

/** The markdown as HTML once everything it loads lazily (the GitHub extension, the highlighter) has arrived. */
async function render(markdown: string): Promise<string> {
  const { prelude } = await prerenderToNodeStream(createElement(MantineProvider, null, createElement(MarkdownRenderer, null, markdown)));
  let html = "";
  for await (const chunk of prelude) html += String(chunk);
  return html;
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

  it("renders plain markdown without waiting for the GitHub extension", () => {
    const html = renderToStaticMarkup(createElement(MantineProvider, null, createElement(MarkdownRenderer, null, "Some **bold** text")));
    expect(html).toContain("<strong>bold</strong>");
  });
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
