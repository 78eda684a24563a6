import { Typography } from "@mantine/core";
import { lazy, Suspense, use } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import { i18n } from "./i18n.ts";
import "./markdown.css";
import "./markdown-texts.ts";

/** Links may use only these protocols; anchors and relative paths have none and pass. */
const SCHEMA = {
  ...defaultSchema,
  protocols: { ...defaultSchema.protocols, href: ["http", "https", "mailto", "tel"], src: ["http", "https"] },
};

const SAFE_URL = /^(https?:|mailto:|tel:|#|\/|\.{0,2}\/|[^:]*$)/i;

/**
 * Text that may use a GitHub extension (a table's pipe, ~strikethrough~, a task box, a bare link
 * or address, a footnote) loads the extension first; plain markdown does without it.
 */
const GFM_HINT = /[|~@]|\[[ xX]\]|https?:\/\/|www\.|\[\^/i;
let gfm: ReturnType<typeof loadGfm> | null = null;
function loadGfm() {
  return import("remark-gfm").then((m) => [m.default]);
}

// The highlighter loads with the first fenced code block that names a language, not before.
const HighlightedCode = lazy(() => import("./highlight.tsx"));

const COMPONENTS: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target={props.href?.startsWith("#") ? undefined : "_blank"} rel="noopener noreferrer nofollow" />,
  // A task list's box is named for what it shows (it is never editable).
  input: ({ node: _node, ...props }) =>
    props.type === "checkbox" ? <input {...props} aria-label={i18n.t(props.checked ? "markdown.task_done" : "markdown.task_open")} /> : <input {...props} />,
  code: ({ node: _node, className, children, ...props }) => {
    const language = /(?:^|\s)language-([\w+#-]+)/.exec(className ?? "")?.[1];
    if (!language || typeof children !== "string") return <code className={className} {...props}>{children}</code>;
    const code = children.replace(/\n$/, "");
    return (
      <Suspense fallback={<code className={className}>{code}</code>}>
        <HighlightedCode language={language.toLowerCase()} code={code} />
      </Suspense>
    );
  },
};

/**
 * The markdown renderer behind Markdown: untrusted GitHub-flavoured markdown (tables, task lists,
 * strikethrough, autolinks) through a tag whitelist, fenced code highlighted.
 */
export default function MarkdownRenderer({ children }: { children: string }) {
  // Suspends (the caller shows the plain text meanwhile) until the extension has loaded.
  const remarkPlugins = GFM_HINT.test(children) ? use((gfm ??= loadGfm())) : [];
  return (
    <Typography p={0} fz="sm" className="fs-markdown">
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={[[rehypeSanitize, SCHEMA]]} urlTransform={(url) => (SAFE_URL.test(url.trim()) ? url : "")} components={COMPONENTS}>
        {children}
      </ReactMarkdown>
    </Typography>
  );
}
