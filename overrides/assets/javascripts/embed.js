// The embed pages' own script (calcsite/embed.py): the colour scheme, and
// which form a case shows.
//
// It is the first element of the body, a classic script of the site (the
// page's policy allows no inline script), so it runs before the first paint:
//
// - Material's stylesheets read the scheme from the body's attributes; an
//   embed has none of Material's JavaScript, so this script sets them from
//   the system's preference, and again when it changes. The light and dark
//   schemes ("scheme primary accent") are in data-embed-light|dark.
// - An iframe is sized for one form: a link that carries a case (its query
//   has one of the input names the head lists, as the page script judges it)
//   shows the form that the page script fills, the mode named by `mode`, else
//   the default mode's, as a full page would fill it; the others are hidden.
//   Without a case, every form is shown.
//
// Nothing is sent anywhere: no message to the embedding page, no request.
//
// A classic script cannot import the contract module the page script does:
// tests/site/test_contract.py checks that each name below is declared in
// overrides/hooks/calcsite/contract.py.

(() => {
  const body = document.body;
  const schemes = {
    light: (body.dataset.embedLight || "").split(" "),
    dark: (body.dataset.embedDark || "").split(" "),
  };
  const dark = matchMedia("(prefers-color-scheme: dark)");
  const apply = () => {
    const [scheme, primary, accent] =
      dark.matches && schemes.dark[0] ? schemes.dark : schemes.light;
    if (!scheme) return;
    body.setAttribute("data-md-color-scheme", scheme);
    if (primary) body.setAttribute("data-md-color-primary", primary);
    if (accent) body.setAttribute("data-md-color-accent", accent);
  };
  apply();
  dark.addEventListener("change", apply);

  const showOne = () => {
    const forms = [...document.querySelectorAll("form.calc[data-calc]")];
    const params = new URLSearchParams(location.search);
    const meta = document.querySelector('meta[name="calc:inputs"]');
    const names = new Set((meta ? meta.content : "").split(/\s+/).filter(Boolean));
    let shown = forms.find((form) => form.dataset.mode === params.get("mode"));
    if (!shown && [...params.keys()].some((key) => names.has(key))) {
      shown = forms.find((form) => form.dataset.mode === form.dataset.defaultMode) ?? forms[0];
    }
    if (!shown) return;
    for (const form of forms) form.hidden = form !== shown;
  };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", showOne, { once: true });
  } else {
    showOne();
  }
})();
