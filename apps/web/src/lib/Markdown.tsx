import { Text, Typography } from "@mantine/core";
import { type ComponentType, lazy, Suspense, useContext, useEffect, useState } from "react";
import { KEEP_SERVER_HTML } from "./keep-server-html.ts";
import { importTwice } from "./import-twice.ts";
import { useHydratingNow } from "./render-clock.ts";
import { SsrNotesContext } from "./ssr-state.ts";
// A document's styles, and its code blocks' highlighting, come with the shell: the server draws
// markdown that the browser keeps without loading the renderer.
import "./markdown.css";
import "./highlight.css";

// The markdown parser and renderer load the first time any markdown is drawn in the browser, not
// with the shell. Once loaded, markdown is drawn at once, without a round through the lazy
// component's suspense.
let Loaded: ComponentType<{ children: string }> | null = null;
let loading: Promise<typeof import("./MarkdownRenderer.tsx")> | null = null;
// A chunk that failed to arrive is asked for once more, as deferred pieces are, before the page
// that shows markdown fails; a load that failed twice is tried afresh next time.
const loadRenderer = () =>
  (loading ??= importTwice(() => import("./MarkdownRenderer.tsx")).then(
    (module) => {
      Loaded = module.default;
      return module;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  ));
const MarkdownRenderer = lazy(loadRenderer);

/** Starts loading the renderer ahead of the first markdown a page will show. */
export function preloadMarkdown(): Promise<unknown> {
  return loadRenderer();
}

/** Whether the renderer has loaded; when `needed`, it starts loading it. */
function useRendererLoaded(needed: boolean): boolean {
  const [loaded, setLoaded] = useState(Loaded !== null);
  useEffect(() => {
    if (!needed || loaded) return;
    let live = true;
    // A renderer that fails to load is reported by the lazy component that draws with it.
    void loadRenderer().then(() => live && setLoaded(true), () => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, [needed, loaded]);
  return loaded;
}

/**
 * Whether markdown can be drawn now (the renderer has loaded, or the server drew it and React is
 * hydrating it); when `needed`, it starts loading it.
 */
export function useMarkdownReady(needed: boolean): boolean {
  const hydrating = useHydratingNow();
  const [drawnByServer] = useState(hydrating);
  return useRendererLoaded(needed && !drawnByServer) || drawnByServer;
}

/** The element MarkdownRenderer draws around a document (the same props, so hydration matches). */
export const MARKDOWN_WRAPPER = { p: 0, fz: "sm", className: "fs-markdown" } as const;

/**
 * Untrusted markdown (challenge text, announcements, pages), rendered through a tag whitelist.
 *
 * Markdown the server drew stays as the server drew it: the browser hydrates the element around it
 * and keeps its content, without loading or running the parser (the document has no handlers to
 * attach: links, images, code blocks). When the text changes later, the renderer loads and draws
 * the new text (the old stays until it has loaded).
 *
 * Drawn in the browser, the text is shown as it is until the renderer has loaded; with `suspend`,
 * the nearest outer loading state is shown instead (for the main text of a page, which would
 * otherwise jump when the rendered markdown replaces the plain text).
 */
export function Markdown({ children, suspend = false }: { children: string; suspend?: boolean }) {
  const notes = useContext(SsrNotesContext);
  const hydrating = useHydratingNow();
  // The text the server drew (this element was hydrated), or null.
  const [drawnByServer] = useState(() => (hydrating && notes === null ? children : null));
  const changed = drawnByServer !== null && drawnByServer !== children;
  const loaded = useRendererLoaded(changed);
  if (drawnByServer !== null && (!changed || !loaded)) {
    return <Typography {...MARKDOWN_WRAPPER} dangerouslySetInnerHTML={KEEP_SERVER_HTML} suppressHydrationWarning />;
  }
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
