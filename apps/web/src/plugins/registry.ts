/**
 * A typed registry: named entries of one kind (category types, challenge types, editors, flag
 * types, popups, pages, login providers). Built-ins and plugins register through the same call;
 * a later registration of a name replaces the earlier one, so a plugin can override a built-in.
 */
export interface Registry<T> {
  register(name: string, entry: T): void;
  get(name: string): T | undefined;
  names(): string[];
}

export function createRegistry<T>(): Registry<T> {
  const entries = new Map<string, T>();
  return {
    register(name, entry) {
      entries.set(name, entry);
    },
    get(name) {
      return entries.get(name);
    },
    names() {
      return [...entries.keys()];
    },
  };
}
