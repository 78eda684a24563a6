import { lazy, Suspense, useContext, useState, type ComponentProps, type ComponentType, type ReactNode } from "react";
import { LoadingScreen } from "../shell/LoadingScreen.tsx";
import { importTwice } from "./import-twice.ts";
import { SsrNotesContext } from "./ssr-state.ts";

/** A deferred component: drawn once its code has loaded, which `preload` starts (and awaits). */
export type Deferred<P> = ((props: P) => React.JSX.Element) & { preload: () => Promise<void> };

/** Every deferred piece defined so far (by the modules loaded), by its module: how to load its code. */
const registry = new Map<string, (() => Promise<void>)[]>();

/**
 * A component whose code loads the first time it is drawn (a chunk of its own), with the loading
 * screen (or `fallback`) meanwhile: pages and heavy pieces download only where they are used.
 * `module` names the module it loads (its path under src, without extension), the same in the
 * browser's build and the server's: the server notes which pieces a page it draws shows, and the
 * browser loads them all before it hydrates that page (preloadDrawn), so it hydrates as drawn
 * rather than showing a piece's loading screen while its code arrives.
 */
export function deferred<P extends object>(module: string, load: () => Promise<ComponentType<P>>, fallback: ReactNode = <LoadingScreen />): Deferred<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  // A chunk that failed to arrive (a network blip) is asked for once more before the page fails.
  const preload = () => (loading ??= importTwice(load).then((component) => (loaded = component)));
  const Component = lazy(async () => ({ default: await preload() }));
  const preloads = registry.get(module) ?? [];
  preloads.push(() => preload().then(() => undefined));
  registry.set(module, preloads);
  function Deferred(props: P) {
    useContext(SsrNotesContext)?.deferred.add(module);
    // Decided once per place it is drawn: switching from the lazy wrapper to the loaded component
    // on a later render would be another element type there, and React would remount it (its state,
    // a form's typed values, lost).
    const [Loaded] = useState(() => loaded);
    return <Suspense fallback={fallback}>{Loaded ? <Loaded {...props} /> : <Component {...(props as ComponentProps<typeof Component>)} />}</Suspense>;
  }
  // As TanStack Router's lazy route components: the router loads a route's component with the route.
  return Object.assign(Deferred, { preload: () => preload().then(() => undefined) });
}

/**
 * Loads the code of the deferred pieces a server-drawn page shows (by module), before the browser
 * hydrates it. A piece inside another's code is defined once that code has loaded: loaded in
 * rounds, each finding the pieces the one before defined.
 */
export async function preloadDrawn(modules: readonly string[]): Promise<void> {
  const wanted = new Set(modules);
  for (let round = 0; round < 6 && wanted.size > 0; round++) {
    const ready = [...wanted].filter((module) => registry.has(module));
    if (ready.length === 0) return;
    for (const module of ready) wanted.delete(module);
    await Promise.all(ready.flatMap((module) => registry.get(module)!.map((preload) => preload().catch(() => undefined))));
  }
}
