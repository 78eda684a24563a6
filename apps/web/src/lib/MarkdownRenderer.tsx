import { Typography } from "@mantine/core";
import { lazy, Suspense } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import "./markdown.css";

/** Links may use only these protocols; anchors and relative paths have none and pass. */
const SCHEMA = {
  ...defaultSchema,
  protocols: { ...defaultSchema.protocols, href: ["http", "https", "mailto", "tel"], src: ["http", "https"] },
};

const SAFE_URL = /^(https?:|mailto:|tel:|#|\/|\.{0,2}\/|[^:]*$)/i;

// The highlighter loads with the first fenced code block that names a language, not before.
const HighlightedCode = lazy(() => import("./highlight.tsx"));

const COMPONENTS: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target={props.href?.startsWith("#") ? undefined : "_blank"} rel="noopener noreferrer nofollow" />,
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
  return (
    <Typography p={0} fz="sm" className="fs-markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[[rehypeSanitize, SCHEMA]]} urlTransform={(url) => (SAFE_URL.test(url.trim()) ? url : "")} components={COMPONENTS}>
        {children}
      </ReactMarkdown>
    </Typography>
  );
}
