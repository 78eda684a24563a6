import type { BrowserContext, Page } from "@playwright/test";

/**
 * Watches what React draws, through the hook React gives its developer tools (present in its
 * production build too): installed before the page's scripts run, it is told of every commit, and
 * notes the elements a commit drew anew (an element whose props React made again: its component
 * rendered). `redrawnIn(selector)` then says how many elements under the first match of `selector`
 * were drawn again since the last `reset()`; `commits` counts the commits.
 */
export async function watchCommits(target: BrowserContext | Page): Promise<void> {
  await target.addInitScript(() => {
    interface Fiber {
      type: unknown;
      stateNode: unknown;
      memoizedProps: unknown;
      alternate: Fiber | null;
      child: Fiber | null;
      sibling: Fiber | null;
    }
    const lastProps = new WeakMap<Fiber, unknown>();
    let redrawn: Element[] = [];
    const state = {
      commits: 0,
      reset() {
        redrawn = [];
      },
      redrawnIn(selector: string): number {
        const scope = document.querySelector(selector);
        return scope ? redrawn.filter((element) => scope.contains(element)).length : -1;
      },
    };
    const visit = (root: Fiber) => {
      const stack: Fiber[] = [root];
      while (stack.length > 0) {
        const fiber = stack.pop()!;
        if (typeof fiber.type === "string" && fiber.stateNode instanceof Element) {
          const before = lastProps.has(fiber) ? lastProps.get(fiber) : fiber.alternate ? lastProps.get(fiber.alternate) : undefined;
          if (before !== undefined && before !== fiber.memoizedProps) redrawn.push(fiber.stateNode);
          lastProps.set(fiber, fiber.memoizedProps);
          if (fiber.alternate) lastProps.set(fiber.alternate, fiber.memoizedProps);
        }
        if (fiber.sibling) stack.push(fiber.sibling);
        if (fiber.child) stack.push(fiber.child);
      }
    };
    Object.assign(window, {
      __reactCommits: state,
      __REACT_DEVTOOLS_GLOBAL_HOOK__: {
        supportsFiber: true,
        renderers: new Map(),
        inject: () => 1,
        onScheduleFiberRoot: () => {},
        onCommitFiberRoot: (_id: number, root: { current: Fiber }) => {
          state.commits++;
          visit(root.current);
        },
        onCommitFiberUnmount: () => {},
        onPostCommitFiberRoot: () => {},
        checkDCE: () => {},
      },
    });
  });
}

/** Commits React has made on the page so far. */
export function commits(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __reactCommits: { commits: number } }).__reactCommits.commits);
}

/** Forgets what was drawn so far: `redrawnIn` counts from here. */
export function resetRedrawn(page: Page): Promise<void> {
  return page.evaluate(() => (window as unknown as { __reactCommits: { reset(): void } }).__reactCommits.reset());
}

/** How many elements under the first match of `selector` React drew again since the last reset (-1: no such element). */
export function redrawnIn(page: Page, selector: string): Promise<number> {
  return page.evaluate((s) => (window as unknown as { __reactCommits: { redrawnIn(s: string): number } }).__reactCommits.redrawnIn(s), selector);
}
