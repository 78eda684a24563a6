import { Text } from "@mantine/core";
import { type ComponentType, lazy, Suspense, useContext, useEffect, useState } from "react";
import { SsrNotesContext } from "./ssr-state.ts";

// The markdown parser and renderer load the first time any markdown is shown, not with the shell.
// Once loaded, markdown is drawn at once, without a round through the lazy component's suspense.
let Loaded: ComponentType<{ children: string }> | null = null;
const loadRenderer = () =>
  import("./MarkdownRenderer.tsx").then((module) => {
    Loaded = module.default;
    return module;
  });
const MarkdownRenderer = lazy(loadRenderer);

/** Starts loading the renderer ahead of the first markdown a page will show. */
export function preloadMarkdown(): Promise<unknown> {
  return loadRenderer();
}

/** Whether the renderer has loaded; when `needed`, it starts loading it. */
export function useMarkdownReady(needed: boolean): boolean {
  const [ready, setReady] = useState(Loaded !== null);
  useEffect(() => {
    if (!needed || ready) return;
    let live = true;
    void loadRenderer().then(() => live && setReady(true), () => live && setReady(true));
    return () => {
      live = false;
    };
  }, [needed, ready]);
  return ready;
}

/**
 * Untrusted markdown (challenge text, announcements, pages), rendered through a tag whitelist.
 * Until the renderer has loaded, the text is shown as it is; with `suspend`, the nearest outer
 * loading state is shown instead (for the main text of a page, which would otherwise jump when the
 * rendered markdown replaces the plain text).
 */
export function Markdown({ children, suspend = false }: { children: string; suspend?: boolean }) {
  // A page the server draws says it shows markdown, so the browser has the renderer before it hydrates.
  const notes = useContext(SsrNotesContext);
  if (notes) notes.markdown = true;
  if (Loaded) return <Loaded>{children}</Loaded>;
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
