import { Text } from "@mantine/core";
import { lazy, Suspense } from "react";

// The markdown parser and renderer load the first time any markdown is shown, not with the shell.
const MarkdownRenderer = lazy(() => import("./MarkdownRenderer.tsx"));

/** Untrusted markdown (challenge text, announcements, pages), rendered through a tag whitelist. */
export function Markdown({ children }: { children: string }) {
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
