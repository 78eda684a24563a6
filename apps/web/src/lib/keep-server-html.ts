/**
 * What a kept element's content is set to: nothing. The same object every time, so React never
 * writes it (it writes innerHTML only when the object changes), and the HTML the server drew in it
 * stays (with `suppressHydrationWarning` on the element).
 */
export const KEEP_SERVER_HTML = { __html: "" };
