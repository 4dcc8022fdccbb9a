// Starts Material's bundle after DOMContentLoaded, and mounts its components in
// a task of their own.
//
// Loaded as Material ships it, the bundle evaluates and then, on
// DOMContentLoaded, mounts every component of the page, all in one main-thread
// task: the longest of a page load (about 140 ms in Lighthouse's mobile
// simulation, most of its Total Blocking Time). From here it evaluates in one
// task once the document is parsed, and its components mount in the next,
// through `document$`: the observable that Material exports for custom scripts,
// emits once on DOMContentLoaded (and, with instant navigation, on each new
// page) and replays to late subscribers.
//
// This script is deferred (overrides/main.html), so it always runs before
// DOMContentLoaded, and the bundle, inserted from that event, always after it:
// Material's own listener never fires, and the components mount exactly once.
//
// The search index is fetched when the reader first opens search
// (calcsite/search.py). Material's search.highlight, which marks a search's
// words on the page a result opened (its address carries them, ?h=), asks
// for the index as every page starts: it is kept for those pages only.
"use strict";

(() => {
  const { bundle } = document.currentScript.dataset;
  const fromSearch = new URLSearchParams(location.search).has("h");
  document.addEventListener(
    "DOMContentLoaded",
    () => {
      if (!fromSearch) {
        const config = document.getElementById("__config");
        const settings = JSON.parse(config.textContent);
        settings.features = settings.features.filter((name) => name !== "search.highlight");
        config.textContent = JSON.stringify(settings);
      }
      const script = document.createElement("script");
      script.src = bundle;
      // The load event follows evaluation in the same task; a timeout ends it.
      script.addEventListener("load", () =>
        setTimeout(() => {
          window.document$.next(document);
          // Mounting is synchronous: each code block's copy button is now in a
          // <nav> of Material's with no name, one alike landmark per block
          // (axe's landmark-unique). A button is no navigation: the landmark
          // goes, the button stays.
          for (const nav of document.querySelectorAll(".md-code__nav")) {
            nav.setAttribute("role", "none");
          }
        }),
      );
      document.body.append(script);
    },
    { once: true },
  );
})();
