import { Typography } from "@mantine/core";
import ReactMarkdown from "react-markdown";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";

/** Links may use only these protocols; anchors and relative paths have none and pass. */
const SCHEMA = {
  ...defaultSchema,
  protocols: { ...defaultSchema.protocols, href: ["http", "https", "mailto", "tel"], src: ["http", "https"] },
};

const SAFE_URL = /^(https?:|mailto:|tel:|#|\/|\.{0,2}\/|[^:]*$)/i;

/** The markdown renderer behind Markdown: untrusted text through a tag whitelist. */
export default function MarkdownRenderer({ children }: { children: string }) {
  return (
    <Typography p={0} fz="sm">
      <ReactMarkdown
        rehypePlugins={[[rehypeSanitize, SCHEMA]]}
        urlTransform={(url) => (SAFE_URL.test(url.trim()) ? url : "")}
        components={{ a: ({ node: _node, ...props }) => <a {...props} target={props.href?.startsWith("#") ? undefined : "_blank"} rel="noopener noreferrer nofollow" /> }}
      >
        {children}
      </ReactMarkdown>
    </Typography>
  );
}
