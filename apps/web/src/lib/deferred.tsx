import { lazy, Suspense, type ComponentProps, type ComponentType, type ReactNode } from "react";
import { LoadingScreen } from "../shell/LoadingScreen.tsx";

/**
 * A component whose code loads the first time it is drawn (a chunk of its own), with the loading
 * screen (or `fallback`) meanwhile: pages and heavy pieces download only where they are used.
 */
export function deferred<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = <LoadingScreen />): (props: P) => React.JSX.Element {
  // A chunk that failed to arrive (a network blip) is asked for once more before the page fails.
  const Component = lazy(async () => ({ default: await load().catch(() => new Promise<void>((r) => setTimeout(r, 300)).then(load)) }));
  return function Deferred(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Component {...(props as ComponentProps<typeof Component>)} />
      </Suspense>
    );
  };
}
