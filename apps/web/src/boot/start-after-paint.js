// A server-drawn page's first script. The page is readable without code, so its code is fetched
// once the page has been painted: on a slow link, the page's styles, typeface and images have the
// connection to themselves until then. The code to load is listed in the page (a JSON data block,
// #flagship-code: the app's entry and the chunks it and the drawn pieces import).
(() => {
  const list = document.getElementById("flagship-code");
  if (!list) return;
  // What the reader does to the page before the app has taken it over (a tap on "Log in", Enter in
  // the flag field, as the page appears) would be lost: the page's buttons do nothing without the
  // app, and a form would be sent by the browser itself, reloading the page and losing what was
  // typed. The last such action is held here and done again by the app once it has hydrated its
  // target and given back what was typed (lib/early-input.ts). Links work as links meanwhile.
  const hold = (event, action) => {
    if (document.documentElement.dataset.start) return;
    event.preventDefault();
    window.flagshipHeld = action;
  };
  document.addEventListener(
    "click",
    (event) => {
      const button = event.target instanceof Element ? event.target.closest("button") : null;
      if (button) hold(event, { type: "click", target: button });
    },
    true,
  );
  document.addEventListener(
    "keydown",
    (event) => {
      // In a form, Enter clicks its submit button (held above) or sends it (held below).
      const field = event.target;
      if (event.key === "Enter" && !event.isComposing && field instanceof HTMLInputElement && !field.form) hold(event, { type: "enter", target: field });
    },
    true,
  );
  document.addEventListener(
    "submit",
    (event) => {
      // The app's forms have no action of their own.
      if (event.target instanceof HTMLFormElement && !event.target.hasAttribute("action")) hold(event, { type: "submit", target: event.target });
    },
    true,
  );
  const { entry, preload } = JSON.parse(list.textContent);
  const load = () => {
    for (const href of preload) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = href;
      document.head.appendChild(link);
    }
    const script = document.createElement("script");
    script.type = "module";
    script.crossOrigin = "";
    script.src = entry;
    document.head.appendChild(script);
  };
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    load();
  };
  // A page opened in a background tab paints nothing until it is shown: it loads at once.
  if (document.visibilityState !== "visible") return start();
  // Once the browser reports the page's first contentful paint (the frame on screen), or, where it
  // reports no paints, two frames on; after three seconds whatever happened.
  setTimeout(start, 3000);
  if (typeof PerformanceObserver === "function" && PerformanceObserver.supportedEntryTypes?.includes("paint")) {
    new PerformanceObserver((entries, observer) => {
      if (!entries.getEntriesByName("first-contentful-paint").length) return;
      observer.disconnect();
      start();
    }).observe({ type: "paint", buffered: true });
  } else {
    requestAnimationFrame(() => requestAnimationFrame(start));
  }
})();
