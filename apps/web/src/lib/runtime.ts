/** Settings the server puts in the page at serve time (see the server's web app route). */
interface RuntimeSettings {
  footerText: string;
}

declare global {
  interface Window {
    __FLAGSHIP__?: Partial<RuntimeSettings>;
  }
}

export const runtime: RuntimeSettings = {
  footerText: window.__FLAGSHIP__?.footerText ?? "",
};
