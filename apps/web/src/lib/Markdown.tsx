import { Text } from "@mantine/core";
import { lazy, Suspense } from "react";

// The markdown parser and renderer load the first time any markdown is shown, not with the shell.
const MarkdownRenderer = lazy(() => import("./MarkdownRenderer.tsx"));

/** Starts loading the renderer ahead of the first markdown a page will show. */
export function preloadMarkdown(): void {
  void import("./MarkdownRenderer.tsx");
}

/**
 * Untrusted markdown (challenge text, announcements, pages), rendered through a tag whitelist.
 * Until the renderer has loaded, the text is shown as it is; with `suspend`, the nearest outer
 * loading state is shown instead (for the main text of a page, which would otherwise jump when the
 * rendered markdown replaces the plain text).
 */
export function Markdown({ children, suspend = false }: { children: string; suspend?: boolean }) {
  if (suspend) return <MarkdownRenderer>{children}</MarkdownRenderer>;
  return (
    <Suspense
      fallback={
        <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
          {children}
        </Text>
      }
    >
      <MarkdownRenderer>{children}</MarkdownRenderer>
    </Suspense>
  );
}
