// Starts Material's bundle after DOMContentLoaded, and mounts its components in
// a task of their own, after the page has been rendered once more.
//
// Loaded as Material ships it, the bundle evaluates and then, on
// DOMContentLoaded, mounts every component of the page, all in one main-thread
// task: the longest of a page load (about 140 ms in Lighthouse's mobile
// simulation, most of its Total Blocking Time). From here it evaluates in one
// task once the document is parsed, and its components mount later, through
// `document$`: the observable that Material exports for custom scripts, emits
// once on DOMContentLoaded (and, with instant navigation, on each new page) and
// replays to late subscribers.
//
// Not in the task right after evaluation: the palette, which starts with the
// bundle, ends its start-up with a timer that removes the attribute under which
// it switches colours without transitions (data-md-color-switching, on the
// body). That restyles every element of the page, and the header's first
// measurement in the mount forced it, in the mount's task (40-50 ms of a
// 170 ms task in Lighthouse's mobile simulation). After a frame the browser
// has done it in its own rendering step, and the mount is that much shorter.
//
// This script is deferred (overrides/main.html), so it always runs before
// DOMContentLoaded, and the bundle, inserted from that event, always after it:
// Material's own listener never fires, and the components mount exactly once.
//
// The search index is fetched when the reader first opens search
// (calcsite/search.py). Material's search.highlight, which marks a search's
// words on the page a result opened (its address carries them, ?h=), asks
// for the index as every page starts: it is kept for those pages only.
//
// The search worker starts then too. Material creates it as search is set up,
// though the first message it posts to it is the index; calcsite/search.py
// has the bundle construct LazyWk (below) instead of Worker, and the worker's
// script (12 kB gzip) is downloaded on the first search only.
//
// The bundle's address is in this script's data-bundle (main.html writes it,
// by the name calcsite/contract.py declares: a classic script cannot import
// the contract module, so tests/site/test_contract.py checks the name here).
"use strict";

// Material's search worker, started when the reader first opens search, or on
// the first message posted to it if that comes first. Opening search is
// Material's own signal to fetch the index (a change of its search toggle,
// which its keyboard shortcut clicks): the worker's script is then requested
// alongside the index rather than once the index has arrived.
// Material uses a worker's postMessage and its "message" events only, which
// it receives through addEventListener and removeEventListener (rxjs's
// fromEvent); an EventTarget has both. Its name has six letters, as Worker
// has: the bundle keeps its length, and its source map its columns.
window.LazyWk = class extends EventTarget {
  #url;
  #worker;

  constructor(url) {
    super();
    // Resolved against the page's address now, as new Worker(url) would be.
    this.#url = new URL(url, document.baseURI).href;
    document
      .querySelector('[data-md-toggle="search"]')
      ?.addEventListener("change", () => this.#start(), { once: true });
  }

  postMessage(...message) {
    this.#start().postMessage(...message);
  }

  #start() {
    if (this.#worker === undefined) {
      this.#worker = new Worker(this.#url);
      this.#worker.addEventListener("message", ({ data }) => {
        this.dispatchEvent(new MessageEvent("message", { data }));
      });
    }
    return this.#worker;
  }
};

(() => {
  const { bundle } = document.currentScript.dataset;
  const fromSearch = new URLSearchParams(location.search).has("h");
  // The next frame, then a task: after the browser's next rendering step. A
  // hidden page renders no frame; the timeout mounts it anyway.
  const afterNextFrame = (callback) => {
    let done = false;
    const once = () => {
      if (!done) {
        done = true;
        callback();
      }
    };
    requestAnimationFrame(() => setTimeout(once));
    setTimeout(once, 200);
  };
  const mount = () => {
    window.document$.next(document);
    // Mounting is synchronous: each code block's copy button is now in a
    // <nav> of Material's with no name, one alike landmark per block
    // (axe's landmark-unique). A button is no navigation: the landmark
    // goes, the button stays.
    for (const nav of document.querySelectorAll(".md-code__nav")) {
      nav.setAttribute("role", "none");
    }
  };
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
      // The load event follows evaluation in the same task.
      script.addEventListener("load", () => afterNextFrame(mount));
      document.body.append(script);
    },
    { once: true },
  );
})();
