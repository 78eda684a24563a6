import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import php from "highlight.js/lib/languages/php";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import x86asm from "highlight.js/lib/languages/x86asm";
import xml from "highlight.js/lib/languages/xml";
import { createLowlight } from "lowlight";
import type { ReactNode } from "react";

// The languages CTF challenges quote most; each grammar brings its aliases (js, py, sh, html...).
const lowlight = createLowlight({ bash, c, cpp, diff, go, java, javascript, json, php, python, rust, sql, typescript, x86asm, xml });

type Tree = ReturnType<typeof lowlight.highlight>;
type Span = Extract<Tree["children"][number], { type: "element" }>;

/** The highlighter's tree as React elements: spans with class names, and text. */
function toReact(nodes: Tree["children"] | Span["children"]): ReactNode[] {
  return nodes.map((node, key) => {
    if (node.type === "text") return node.value;
    if (node.type !== "element") return null;
    const className = node.properties.className;
    return (
      <span key={key} className={Array.isArray(className) ? className.join(" ") : undefined}>
        {toReact(node.children)}
      </span>
    );
  });
}

/**
 * A fenced code block's text, highlighted. The highlighter builds a tree of spans with class
 * names only (never HTML from the text), rendered as React elements. Unknown languages stay plain.
 */
export default function HighlightedCode({ language, code }: { language: string; code: string }) {
  if (!lowlight.registered(language)) return <code className={`language-${language}`}>{code}</code>;
  const tree = lowlight.highlight(language, code);
  return <code className={`hljs language-${language}`}>{toReact(tree.children)}</code>;
}
