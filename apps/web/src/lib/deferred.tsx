import { lazy, Suspense, type ComponentProps, type ComponentType, type ReactNode } from "react";
import { LoadingScreen } from "../shell/LoadingScreen.tsx";

/**
 * A component whose code loads the first time it is drawn (a chunk of its own), with the loading
 * screen (or `fallback`) meanwhile: pages and heavy pieces download only where they are used.
 */
export function deferred<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = <LoadingScreen />): (props: P) => React.JSX.Element {
  const Component = lazy(async () => ({ default: await load() }));
  return function Deferred(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Component {...(props as ComponentProps<typeof Component>)} />
      </Suspense>
    );
  };
}
