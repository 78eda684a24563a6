import { lazy, Suspense, useState, type ComponentProps, type ComponentType, type ReactNode } from "react";
import { LoadingScreen } from "../shell/LoadingScreen.tsx";

/** A deferred component: drawn once its code has loaded, which `preload` starts (and awaits). */
export type Deferred<P> = ((props: P) => React.JSX.Element) & { preload: () => Promise<void> };

/**
 * A component whose code loads the first time it is drawn (a chunk of its own), with the loading
 * screen (or `fallback`) meanwhile: pages and heavy pieces download only where they are used.
 * Once loaded it is drawn at once, without a round through the suspense: so a page the server drew
 * hydrates in one go when its code was preloaded (main.tsx preloads the route's page), instead of
 * showing the loading screen while the code arrives.
 */
export function deferred<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = <LoadingScreen />): Deferred<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  // A chunk that failed to arrive (a network blip) is asked for once more before the page fails.
  const preload = () =>
    (loading ??= load()
      .catch(() => new Promise<void>((r) => setTimeout(r, 300)).then(load))
      .then((component) => (loaded = component)));
  const Component = lazy(async () => ({ default: await preload() }));
  function Deferred(props: P) {
    // Decided once per place it is drawn: switching from the lazy wrapper to the loaded component
    // on a later render would be another element type there, and React would remount it (its state,
    // a form's typed values, lost).
    const [Loaded] = useState(() => loaded);
    return <Suspense fallback={fallback}>{Loaded ? <Loaded {...props} /> : <Component {...(props as ComponentProps<typeof Component>)} />}</Suspense>;
  }
  // As TanStack Router's lazy route components: the router loads a route's component with the route.
  return Object.assign(Deferred, { preload: () => preload().then(() => undefined) });
}
