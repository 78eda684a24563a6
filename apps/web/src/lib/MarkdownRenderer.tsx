import { Typography } from "@mantine/core";
import type { Element, ElementContent, Root as HtmlRoot, RootContent as HtmlContent } from "hast";
import type { FootnoteDefinition, Nodes as MarkdownNode, Parent as MarkdownParent, Root as MarkdownRoot } from "mdast";
import { lazy, type ReactNode, Suspense, useId, useMemo } from "react";
import ReactMarkdown, { type Components, type Options } from "react-markdown";
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import type { VFile } from "vfile";
import { i18n } from "./i18n.ts";
import { MARKDOWN_WRAPPER } from "./Markdown.tsx";
import "./markdown-texts.ts";

// The highlighter loads with the first fenced code block that names a language, not before.
const HighlightedCode = lazy(() => import("./highlight.tsx"));

/**
 * The deepest nesting drawn as elements. Parsing and drawing recurse once per level (deep enough,
 * they overflow the stack, and a line of thousands of list markers takes seconds first): text nested
 * deeper than any document needs is shown as written instead.
 */
const MAX_DEPTH = 32;
/** A line opening more than MAX_DEPTH quotes or lists ("> > > ...", "- - - ..."). */
const DEEP_MARKERS = /^[ \t]*(?:(?:>|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t]))[ \t]*){33}/m;
/** A list item indented past MAX_DEPTH levels of two spaces. */
const DEEP_INDENT = /^[ \t]{66,}(?:[-+*]|\d{1,9}[.)])[ \t]/m;
/**
 * A run of emphasis marks opening or closing more than MAX_DEPTH levels at once ("****...text"):
 * the parser matches such a run two marks at a time, each match costing the length of the document.
 */
const DEEP_EMPHASIS = /[*_]{65,}(?=[^\s*_])|[^\s*_][*_]{65,}/;

/** Past MAX_DEPTH levels, a node becomes its source text as written. */
function remarkDepthLimit() {
  return (tree: MarkdownRoot, file: VFile) => {
    const source = String(file.value);
    const limit = (node: MarkdownParent, depth: number) => {
      node.children = node.children.map((child) => {
        if (!("children" in child)) return child;
        if (depth < MAX_DEPTH) {
          limit(child, depth + 1);
          return child;
        }
        const { start, end } = child.position ?? {};
        return { type: "text", value: start?.offset !== undefined && end?.offset !== undefined ? source.slice(start.offset, end.offset) : "" };
      }) as typeof node.children;
    };
    limit(tree, 1);
  };
}

/**
 * Footnotes are named by their number (fn-1, fnref-1-2), in the order the text first refers to
 * them, rather than by the label the author wrote: the ids are predictable, and what an author
 * writes never becomes an id. Definitions nothing refers to are not drawn, so they are dropped.
 */
function remarkFootnoteNumbers() {
  return (tree: MarkdownRoot) => {
    const definitions = new Map<string, FootnoteDefinition>();
    const collect = (node: MarkdownNode) => {
      if (node.type === "footnoteDefinition") definitions.set(node.identifier, node);
      if ("children" in node) for (const child of node.children) collect(child);
    };
    collect(tree);
    const numbers = new Map<string, string>();
    const order: string[] = [];
    const number = (node: MarkdownNode) => {
      if (node.type === "footnoteDefinition") return;
      if (node.type === "footnoteReference") {
        if (!numbers.has(node.identifier)) {
          numbers.set(node.identifier, String(numbers.size + 1));
          order.push(node.identifier);
        }
        node.label = node.identifier = numbers.get(node.identifier)!;
      }
      if ("children" in node) for (const child of node.children) number(child);
    };
    number(tree);
    // The notes are listed after the text, so references inside a note come after the text's own.
    for (let i = 0; i < order.length; i++) for (const child of definitions.get(order[i]!)?.children ?? []) number(child);
    const rename = (node: MarkdownParent) => {
      node.children = node.children.filter((child) => child.type !== "footnoteDefinition" || numbers.has(child.identifier)) as typeof node.children;
      for (const child of node.children) {
        if (child.type === "footnoteDefinition") child.label = child.identifier = numbers.get(child.identifier)!;
        if ("children" in child) rename(child);
      }
    };
    rename(tree);
  };
}

/** Elements whose whitespace-only text between children is only source formatting. */
const CONTAINERS = new Set(["blockquote", "ul", "ol", "table", "thead", "tbody", "tr", "section"]);
const BLOCKS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "blockquote", "pre", "table", "hr", "section"]);

const isBlock = (node: HtmlContent | undefined) => node?.type === "element" && BLOCKS.has(node.tagName);

/**
 * Drops the line breaks the HTML tree carries between block elements and after hard breaks (they
 * are source formatting, not text), keeping those between words and inline elements.
 */
function rehypeCompact() {
  const compact = (node: HtmlRoot | Element) => {
    const container = node.type === "root" || CONTAINERS.has(node.tagName);
    const listItem = node.type === "element" && node.tagName === "li";
    const children = node.children as HtmlContent[];
    node.children = children.filter((child, i) => {
      if (child.type !== "text") return true;
      if (container && child.value.trim() === "") return false;
      if (child.value !== "\n") return true;
      const previous = children[i - 1];
      if (previous?.type === "element" && previous.tagName === "br") return false;
      return !(listItem && (i === 0 || i === children.length - 1 || isBlock(previous) || isBlock(children[i + 1])));
    }) as ElementContent[];
    for (const child of node.children) if (child.type === "element" && child.tagName !== "pre") compact(child);
  };
  return (tree: HtmlRoot) => compact(tree);
}

/** The text of an element (a code block's code). */
function textOf(node: ElementContent | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.value;
  return node.type === "element" ? node.children.map(textOf).join("") : "";
}

/**
 * GitHub's sanitising schema, with this document's own prefix for the ids it keeps (so two
 * documents on a page never share one, and none can shadow a global), and the footnote heading's
 * screen-reader class. Code-language classes (language-*) are in GitHub's schema already.
 */
function sanitizeSchema(idPrefix: string): SanitizeSchema {
  return {
    ...defaultSchema,
    clobberPrefix: idPrefix,
    attributes: { ...defaultSchema.attributes, h2: [["className", "fs-markdown-sr-only"]] },
  };
}

/** The elements drawn differently from the sanitised tree's defaults. */
function components(idPrefix: string): Components {
  return {
    // Links keep no opener and open in a new tab; a link whose URL the sanitiser refused keeps its
    // text in a plain span. A footnote's links point at this document's prefixed ids.
    a({ href, title, id, children, ...rest }) {
      const props = rest as Record<string, unknown>;
      const footnoteRef = props["data-footnote-ref"] !== undefined;
      const footnoteBackref = props["data-footnote-backref"] !== undefined;
      if (!href) return <span>{children}</span>;
      if (footnoteRef || footnoteBackref) {
        return (
          <a
            href={`#${idPrefix}${href.slice(1)}`}
            id={id}
            aria-describedby={props["aria-describedby"] as string | undefined}
            aria-label={props["aria-label"] as string | undefined}
            data-footnote-ref={footnoteRef ? "" : undefined}
            data-footnote-backref={footnoteBackref ? "" : undefined}
          >
            {children}
          </a>
        );
      }
      return (
        <a href={href} title={title} target={href.startsWith("#") ? undefined : "_blank"} rel="noopener noreferrer nofollow">
          {children}
        </a>
      );
    },
    // An image whose source the sanitiser refused shows its description instead.
    img({ src, alt, title }) {
      if (!src) return alt ?? null;
      return <img src={src} alt={alt ?? ""} title={title} />;
    },
    // A task list's box is named for what it shows; it is never editable.
    input({ checked }) {
      return <input type="checkbox" checked={Boolean(checked)} disabled aria-label={i18n.t(checked ? "markdown.task_done" : "markdown.task_open")} />;
    },
    section({ className, children }) {
      return (
        <section className={className} data-footnotes="">
          {children}
        </section>
      );
    },
    h2({ id, className, children }) {
      return (
        <h2 id={id} className={className}>
          {children}
        </h2>
      );
    },
    // A fenced block shows its code at once, highlighted when the highlighter has arrived. Only a
    // plain language name becomes a class. A long line scrolls inside the block, so the block is
    // a named stop in the tab order: a keyboard reaches it and scrolls it with the arrow keys.
    pre({ node }) {
      const code = node?.children.find((child): child is Element => child.type === "element" && child.tagName === "code");
      const text = textOf(code).replace(/\n$/, "");
      const classes = code?.properties.className;
      const languageClass = (Array.isArray(classes) ? classes.map(String) : []).find((c) => c.startsWith("language-"));
      const language = /^language-([\w+#.-]+)/.exec(languageClass ?? "")?.[1];
      const label = language ? i18n.t("markdown.code_in", { language }) : i18n.t("markdown.code");
      if (!language) {
        return (
          <pre tabIndex={0} role="group" aria-label={label}>
            <code>{text}</code>
          </pre>
        );
      }
      return (
        <pre tabIndex={0} role="group" aria-label={label}>
          <Suspense fallback={<code className={`language-${language}`}>{text}</code>}>
            <HighlightedCode language={language.toLowerCase()} code={text} />
          </Suspense>
        </pre>
      );
    },
  };
}

/** How a document is drawn: GitHub-flavoured markdown, raw HTML dropped, the tree sanitised. */
function options(idPrefix: string): Omit<Options, "children"> {
  return {
    remarkPlugins: [remarkDepthLimit, remarkGfm, remarkFootnoteNumbers],
    remarkRehypeOptions: {
      // The sanitiser prefixes ids (its clobber protection); links to them get the prefix when drawn.
      clobberPrefix: "",
      footnoteLabel: i18n.t("markdown.footnotes"),
      footnoteLabelProperties: { className: ["fs-markdown-sr-only"] },
      footnoteBackLabel: (reference, rereference) =>
        i18n.t("markdown.back_to_reference", { reference: rereference > 1 ? `${reference + 1}-${rereference}` : String(reference + 1) }),
    },
    rehypePlugins: [[rehypeSanitize, sanitizeSchema(idPrefix)], rehypeCompact],
    // Raw HTML is dropped, not escaped: its tags vanish and the text between them stays.
    skipHtml: true,
    components: components(idPrefix),
  };
}

/** Markdown as React elements; the ids of its footnotes start with idPrefix. */
export function drawMarkdown(markdown: string, idPrefix: string): ReactNode {
  const plain = <p className="fs-markdown-plain">{markdown}</p>;
  if (DEEP_MARKERS.test(markdown) || DEEP_INDENT.test(markdown) || DEEP_EMPHASIS.test(markdown)) return plain;
  try {
    return ReactMarkdown({ ...options(idPrefix), children: markdown });
  } catch (error) {
    // Nesting the checks above do not see (thousands of emphasis marks) overflows the stack.
    if (error instanceof RangeError) return plain;
    throw error;
  }
}

/**
 * The markdown renderer behind Markdown: untrusted GitHub-flavoured markdown (tables, task lists,
 * strikethrough, autolinks, footnotes) through react-markdown, raw HTML dropped and the tree
 * sanitised with GitHub's schema, fenced code highlighted.
 */
export default function MarkdownRenderer({ children }: { children: string }) {
  const id = `${useId()}-`;
  const drawn = useMemo(() => drawMarkdown(children, id), [children, id]);
  return (
    <Typography {...MARKDOWN_WRAPPER}>
      {drawn}
    </Typography>
  );
}
