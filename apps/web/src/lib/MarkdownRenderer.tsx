import { Typography } from "@mantine/core";
import { Marked, type MarkedToken, type Token, type Tokens } from "marked";
import markedFootnote, { type Footnote, type FootnoteRef, type Footnotes } from "marked-footnote";
import { Fragment, lazy, type ReactNode, Suspense, useId, useMemo } from "react";
import { i18n } from "./i18n.ts";
import "./markdown.css";
import "./markdown-texts.ts";

/** Links may use only these protocols; anchors and relative paths have none and pass. */
const SAFE_HREF = /^(https?:|mailto:|tel:|#|\/|\.{0,2}\/|[^:]*$)/i;
/** Images load over the web or from this site only: no data: or javascript: sources. */
const SAFE_SRC = /^(https?:|\/|\.{0,2}\/|[^:]*$)/i;

/**
 * The named character references authors use; the lexer resolves numeric ones in text already.
 * Any other name stays as written, as an unknown reference does in CommonMark. A Map, so a name
 * like "constructor" finds nothing.
 */
const NAMED = new Map(
  Object.entries({
    amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", copy: "©", reg: "®", trade: "™",
    hellip: "…", mdash: "—", ndash: "–", lsquo: "‘", rsquo: "’", ldquo: "“", rdquo: "”", laquo: "«",
    raquo: "»", bull: "•", middot: "·", times: "×", divide: "÷", deg: "°", plusmn: "±", micro: "µ",
    para: "¶", sect: "§", euro: "€", pound: "£", yen: "¥", cent: "¢", larr: "←", rarr: "→", uarr: "↑",
    darr: "↓", harr: "↔", check: "✓", shy: "\u00ad", zwj: "\u200d", zwnj: "\u200c",
  }),
);

/**
 * Text as the lexer hands it over still holds character references (it leaves them for an HTML
 * renderer to pass through); a React text node would show them as written, so they are resolved
 * here, in one pass, so "&amp;lt;" stays "&lt;".
 */
function decode(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#[xX]([\da-fA-F]{1,6})|([A-Za-z][A-Za-z\d]{1,31}));/g, (ref, dec?: string, hex?: string, name?: string) => {
    if (name) return NAMED.get(name) ?? ref;
    const code = dec ? Number(dec) : Number.parseInt(hex ?? "", 16);
    return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? "\ufffd" : String.fromCodePoint(code);
  });
}

// The highlighter loads with the first fenced code block that names a language, not before.
const HighlightedCode = lazy(() => import("./highlight.tsx"));

/** The tokens the lexer and the footnote extension produce; nothing else reaches the renderer. */
type MarkdownToken = MarkedToken | Footnotes | Footnote | FootnoteRef;

interface Context {
  /** Prefix of the footnotes' element ids, unique to this document on the page. */
  id: string;
  /** How many levels of elements deep the tokens being drawn are. */
  depth: number;
}

/**
 * The deepest nesting drawn as elements. The lexer recurses once per level (deep enough, it
 * overflows the stack, and a line of thousands of list markers takes it seconds first), and so
 * does drawing: text nested deeper than any document needs is shown as plain text instead.
 */
const MAX_DEPTH = 32;
/** A line opening more than MAX_DEPTH quotes or lists ("> > > ...", "- - - ..."). */
const DEEP_MARKERS = /^[ \t]*(?:(?:>|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t]))[ \t]*){33}/m;
/** A list item indented past MAX_DEPTH levels of two spaces. */
const DEEP_INDENT = /^[ \t]{66,}(?:[-+*]|\d{1,9}[.)])[ \t]/m;

/** The text of inline tokens, for an image's alt text or a title. */
function plain(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((token) => {
      const t = token as MarkdownToken;
      if (t.type === "escape" || t.type === "codespan") return t.text;
      if (t.type === "text") return t.tokens ? plain(t.tokens) : decode(t.text);
      if (t.type === "html" || t.type === "checkbox" || t.type === "footnoteRef") return "";
      return "tokens" in t ? plain(t.tokens) : "";
    })
    .join("");
}

function render(tokens: Token[] | undefined, ctx: Context): ReactNode[] {
  if (!tokens) return [];
  // Past the limit, the tokens' source text as it was written.
  if (ctx.depth >= MAX_DEPTH) return [tokens.map((token) => token.raw).join("")];
  ctx.depth += 1;
  try {
    return tokens.map((token, key) => element(token as MarkdownToken, key, ctx));
  } finally {
    ctx.depth -= 1;
  }
}

/**
 * One token as React elements, from a fixed set of tags with attributes set here (never markup
 * from the text), so the output is safe by construction. Raw HTML is dropped, not escaped: its
 * tags vanish and the text between them stays.
 */
function element(t: MarkdownToken, key: number, ctx: Context): ReactNode {
  switch (t.type) {
    case "paragraph":
      return <p key={key}>{render(t.tokens, ctx)}</p>;
    case "text":
      return t.tokens ? <Fragment key={key}>{render(t.tokens, ctx)}</Fragment> : decode(t.text);
    case "escape":
      return t.text;
    case "heading": {
      const Heading = `h${Math.min(Math.max(t.depth, 1), 6)}` as "h1";
      return <Heading key={key}>{render(t.tokens, ctx)}</Heading>;
    }
    case "blockquote":
      return <blockquote key={key}>{render(t.tokens, ctx)}</blockquote>;
    case "list": {
      const className = t.items.some((item) => item.task) ? "contains-task-list" : undefined;
      const items = t.items.map((item, i) => (
        <li key={i} className={item.task ? "task-list-item" : undefined}>
          {render(item.tokens, ctx)}
        </li>
      ));
      if (!t.ordered) return <ul key={key} className={className}>{items}</ul>;
      return <ol key={key} className={className} start={typeof t.start === "number" && t.start !== 1 ? t.start : undefined}>{items}</ol>;
    }
    case "checkbox":
      // A task list's box is named for what it shows; it is never editable.
      return (
        <Fragment key={key}>
          <input type="checkbox" checked={t.checked} disabled aria-label={i18n.t(t.checked ? "markdown.task_done" : "markdown.task_open")} />{" "}
        </Fragment>
      );
    case "table": {
      const cell = (c: Tokens.TableCell, i: number) => {
        const Cell = c.header ? "th" : "td";
        return <Cell key={i} style={c.align ? { textAlign: c.align } : undefined}>{render(c.tokens, ctx)}</Cell>;
      };
      return (
        <table key={key}>
          <thead>
            <tr>{t.header.map(cell)}</tr>
          </thead>
          {t.rows.length > 0 && <tbody>{t.rows.map((row, i) => <tr key={i}>{row.map(cell)}</tr>)}</tbody>}
        </table>
      );
    }
    case "code": {
      // The info string's first word names the language; only a plain name becomes a class.
      const language = /^[\w+#.-]+/.exec(t.lang ?? "")?.[0];
      const className = language ? `language-${language}` : undefined;
      return (
        <pre key={key}>
          {language ? (
            <Suspense fallback={<code className={className}>{t.text}</code>}>
              <HighlightedCode language={language.toLowerCase()} code={t.text} />
            </Suspense>
          ) : (
            <code>{t.text}</code>
          )}
        </pre>
      );
    }
    case "hr":
      return <hr key={key} />;
    case "strong":
      return <strong key={key}>{render(t.tokens, ctx)}</strong>;
    case "em":
      return <em key={key}>{render(t.tokens, ctx)}</em>;
    case "del":
      return <del key={key}>{render(t.tokens, ctx)}</del>;
    case "codespan":
      return <code key={key}>{t.text}</code>;
    case "br":
      return <br key={key} />;
    case "link": {
      // A bare URL's destination is literal; a written one may hold character references, which
      // are resolved before the check so "&#x6a;avascript:" cannot slip past it.
      const href = (t.autolink ? t.href : decode(t.href)).trim();
      // A link to a refused protocol keeps its text, in a plain span.
      if (!SAFE_HREF.test(href)) return <span key={key}>{render(t.tokens, ctx)}</span>;
      return (
        <a key={key} href={href} title={t.title ? decode(t.title) : undefined} target={href.startsWith("#") ? undefined : "_blank"} rel="noopener noreferrer nofollow">
          {render(t.tokens, ctx)}
        </a>
      );
    }
    case "image": {
      const src = decode(t.href).trim();
      const alt = plain(t.tokens);
      // An image from a refused source shows its description instead.
      if (!SAFE_SRC.test(src)) return alt;
      return <img key={key} src={src} alt={alt} title={t.title ? decode(t.title) : undefined} />;
    }
    case "footnoteRef": {
      const n = t.index > 0 ? `-${t.index + 1}` : "";
      return (
        <sup key={key}>
          <a href={`#${ctx.id}fn-${t.id}`} id={`${ctx.id}fnref-${t.id}${n}`} aria-describedby={`${ctx.id}footnote-label`} data-footnote-ref="">
            {t.id}
          </a>
        </sup>
      );
    }
    case "footnotes":
      return t.items.length > 0 ? footnotes(t, key, ctx) : null;
    default:
      // Raw HTML, link reference definitions, footnote definitions (listed at the end), blank lines.
      return null;
  }
}

/** The footnotes, numbered in order of first reference, each with links back to its references. */
function footnotes(t: Footnotes, key: number, ctx: Context): ReactNode {
  return (
    <section key={key} className="footnotes" data-footnotes="">
      <h2 id={`${ctx.id}footnote-label`} className="fs-markdown-sr-only">
        {i18n.t("markdown.footnotes")}
      </h2>
      <ol>
        {t.items.map((item) => {
          const number = item.refs[0]!.id;
          const backrefs = item.refs.map((ref, i) => (
            <Fragment key={i}>
              {" "}
              <a href={`#${ctx.id}fnref-${number}${i > 0 ? `-${i + 1}` : ""}`} aria-label={i18n.t("markdown.back_to_reference", { reference: i > 0 ? `${number}-${i + 1}` : number })} data-footnote-backref="">
                ↩{i > 0 && <sup>{i + 1}</sup>}
              </a>
            </Fragment>
          ));
          // The links back close the note's last paragraph, as on GitHub.
          const content = item.content.filter((token) => token.type !== "space");
          const last = content.at(-1);
          return (
            <li key={number} id={`${ctx.id}fn-${number}`}>
              {last?.type === "paragraph" ? (
                <>
                  {render(content.slice(0, -1), ctx)}
                  <p>
                    {render(last.tokens, ctx)}
                    {backrefs}
                  </p>
                </>
              ) : (
                <>
                  {render(content, ctx)}
                  {backrefs}
                </>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/**
 * The document's tokens, the footnotes (if any) moved from the front, where the extension puts
 * them, to the end; null for a document nested too deep to lex (it is shown as plain text).
 */
function lex(markdown: string): Token[] | null {
  if (DEEP_MARKERS.test(markdown) || DEEP_INDENT.test(markdown)) return null;
  let tokens: Token[];
  try {
    // The footnote extension keeps state per instance, so each document gets its own.
    tokens = new Marked({ gfm: true }).use(markedFootnote()).lexer(markdown);
  } catch {
    // Nesting the checks above do not see (thousands of emphasis marks) overflows the stack.
    return null;
  }
  const notes = tokens.filter((token) => token.type === "footnotes");
  return [...tokens.filter((token) => token.type !== "footnotes"), ...notes];
}

/** Markdown as React elements; the ids of its footnotes start with idPrefix. */
export function drawMarkdown(markdown: string, idPrefix: string): ReactNode {
  const tokens = lex(markdown);
  return tokens ? render(tokens, { id: idPrefix, depth: 0 }) : <p className="fs-markdown-plain">{markdown}</p>;
}

/**
 * The markdown renderer behind Markdown: untrusted GitHub-flavoured markdown (tables, task lists,
 * strikethrough, autolinks, footnotes) lexed into tokens and drawn as React elements from a tag
 * whitelist, fenced code highlighted.
 */
export default function MarkdownRenderer({ children }: { children: string }) {
  const id = `${useId()}-`;
  const drawn = useMemo(() => drawMarkdown(children, id), [children, id]);
  return (
    <Typography p={0} fz="sm" className="fs-markdown">
      {drawn}
    </Typography>
  );
}
