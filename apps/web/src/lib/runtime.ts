/** Settings the server puts in the page at serve time (see the server's web app route). */
export interface RuntimeSettings {
  footerText: string;
  /** The server has no account yet: every page leads to the first-run setup until it is done. */
  setup: boolean;
}

/** The server writes them as a JSON data block (not a script, which the CSP would refuse). */
function readRuntime(): Partial<RuntimeSettings> {
  const text = typeof document === "undefined" ? null : document.getElementById("flagship-runtime")?.textContent;
  if (!text) return {};
  try {
    return JSON.parse(text) as Partial<RuntimeSettings>;
  } catch {
    return {};
  }
}

const settings = readRuntime();

/** In the browser, read from the page; on the server, set by the renderer (the same for every page it draws). */
export const runtime: RuntimeSettings = {
  footerText: typeof settings.footerText === "string" ? settings.footerText : "",
  setup: settings.setup === true,
};
