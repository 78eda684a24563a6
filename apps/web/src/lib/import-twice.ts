/**
 * Loads a chunk, asking once more 300 ms after a first failure (a network blip, or a fetch aborted
 * as the page's network changes) before the failure is passed on to the page.
 */
export function importTwice<T>(load: () => Promise<T>): Promise<T> {
  return load().catch(() => new Promise<void>((resolve) => setTimeout(resolve, 300)).then(load));
}
