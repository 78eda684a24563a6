import { lazy, Suspense, type ComponentProps, type ComponentType } from "react";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";

/**
 * The staff editors load only when staff open them, so players never download them.
 */
function deferred<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Component = lazy(async () => ({ default: await load() }));
  return function Deferred(props: P) {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <Component {...(props as ComponentProps<typeof Component>)} />
      </Suspense>
    );
  };
}

export const ChallengeEditor = deferred(() => import("./ChallengeEditor.tsx").then((m) => m.ChallengeEditor));
export const NewChallengeEditor = deferred(() => import("./NewChallengeEditor.tsx").then((m) => m.NewChallengeEditor));
export const CategoryForm = deferred(() => import("./CategoryForm.tsx").then((m) => m.CategoryForm));
export const NewCategoryPage = deferred(() => import("./CategoryEditMode.tsx").then((m) => m.NewCategoryPage));
export const PortPage = deferred(() => import("./PortPage.tsx").then((m) => m.PortPage));
export const ThemeBuilder = deferred(() => import("../theming/ThemeBuilder.tsx").then((m) => m.ThemeBuilder));
