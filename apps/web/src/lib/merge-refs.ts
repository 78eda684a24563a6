// Mantine's ScrollArea (inside every Table, Modal and Select) imports one small hook, useMergeRefs,
// from @floating-ui/react. That package is one module, so the import would bring the whole
// positioning library (about 15 KB gzipped) into the first load of any page with a table; the
// build points ScrollArea's import here instead. The hook is floating-ui's own (v0.27), unchanged.
import { type Ref, type RefCallback, useCallback, useMemo, useRef } from "react";

type Cleanup = () => void;

export function useMergeRefs<Instance>(refs: Array<Ref<Instance> | undefined>): RefCallback<Instance> | null {
  const cleanupRef = useRef<Cleanup | undefined>(undefined);
  const refEffect = useCallback(
    (instance: Instance) => {
      const cleanups = refs.map((ref): Cleanup | undefined => {
        if (ref == null) return undefined;
        if (typeof ref === "function") {
          const refCleanup = ref(instance);
          return typeof refCleanup === "function" ? refCleanup : () => void ref(null);
        }
        ref.current = instance;
        return () => {
          ref.current = null;
        };
      });
      return () => cleanups.forEach((cleanup) => cleanup?.());
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the refs are the dependencies, as in the original
    refs,
  );
  return useMemo(
    () => {
      if (refs.every((ref) => ref == null)) return null;
      return (value: Instance | null) => {
        if (cleanupRef.current) {
          cleanupRef.current();
          cleanupRef.current = undefined;
        }
        if (value != null) cleanupRef.current = refEffect(value);
      };
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the refs are the dependencies, as in the original
    refs,
  );
}
