// Deeplinker's content script: hands a plain left click on a link to another site's verified
// domain to the app that claims it (through the background script and the native host). Every
// other navigation (typed URLs, bookmarks, reloads, back and forward, modifier and middle clicks,
// links within the app's own site, links the page handles itself) is never touched. If the app
// does not take the link, the browser follows it as usual.
"use strict";

(() => {
  const api = globalThis.browser ?? globalThis.chrome;
  /** [{app, name, domain}], the verified claims; kept: domains the user keeps in the browser. */
  let claims = [];
  let kept = [];

  /** Settles once the stored claims are read (a few ms after the page starts). */
  const loaded = api.storage.local.get(["claims", "kept"]).then((stored) => {
    claims = stored.claims ?? [];
    kept = stored.kept ?? [];
  }, () => {});
  let isLoaded = false;
  loaded.then(() => { isLoaded = true; });
  api.storage.onChanged.addListener((changes, area) => {
    if (area !== "local") return;
    if (changes.claims) claims = changes.claims.newValue ?? [];
    if (changes.kept) kept = changes.kept.newValue ?? [];
  });
  api.runtime.sendMessage({ type: "refresh" }).catch(() => {});

  function asciiHost(host) {
    try { return new URL(`https://${host}/`).hostname; } catch { return null; }
  }

  /** Whether a claimed domain covers a host: `*.x` covers the subdomains of x, not x. */
  function covers(domain, host) {
    const wildcard = domain.startsWith("*.");
    const base = asciiHost(wildcard ? domain.slice(2) : domain);
    if (!base) return false;
    return wildcard ? host.length > base.length + 1 && host.endsWith(`.${base}`) : host === base;
  }

  /** Whether a link to `link` clicked on a page of `page` (both hosts) goes to its app. */
  function handedOver(link, page) {
    const covering = claims.filter((claim) => covers(claim.domain, link));
    const apps = new Set(covering.map((claim) => claim.app));
    if (apps.size !== 1) return false; // unclaimed, or claimed by several apps
    if (covering.some((claim) => kept.includes(claim.domain))) return false;
    if (link === page) return false;
    const [app] = apps;
    // A link within the app's own site stays, as universal links do on iOS.
    return !claims.some((claim) => claim.app === app && covers(claim.domain, page));
  }

  /** The link a click landed on (through shadow roots), or null. */
  function clickedLink(event) {
    for (const node of event.composedPath()) {
      if (node instanceof Element && (node.localName === "a" || node.localName === "area") && node.hasAttribute("href")) return node;
    }
    return null;
  }

  /** Follows the link as the click would have, when the app did not take it. */
  function follow(anchor, href) {
    const target = (anchor.getAttribute("target") || document.querySelector("base[target]")?.getAttribute("target") || "").toLowerCase();
    if (target === "" || target === "_self") {
      location.assign(href);
    } else if (target === "_top" || target === "_parent") {
      window.open(href, target);
    } else {
      api.runtime.sendMessage({ type: "follow", url: href }).catch(() => {});
    }
  }

  // On the window, in the bubbling phase: the page's own handlers have run, and a link the page
  // handled itself (defaultPrevented) is left to it.
  window.addEventListener("click", (event) => {
    if (!event.isTrusted || event.defaultPrevented || event.button !== 0) return;
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    const anchor = clickedLink(event);
    if (!anchor || anchor.hasAttribute("download")) return;
    let url;
    try {
      const raw = typeof anchor.href === "string" ? anchor.href : anchor.href?.baseVal;
      url = new URL(raw, document.baseURI);
    } catch {
      return;
    }
    if (url.protocol !== "https:") return;
    const href = url.href;
    const handOver = () => api.runtime.sendMessage({ type: "open", url: href }).then(
      (reply) => { if (reply?.handled !== true) follow(anchor, href); },
      () => follow(anchor, href));
    if (isLoaded) {
      if (!handedOver(url.hostname, location.hostname)) return;
      event.preventDefault();
      handOver();
    } else {
      // A click before the claims are read: hold it until they are, then decide.
      event.preventDefault();
      loaded.then(() => (handedOver(url.hostname, location.hostname) ? handOver() : follow(anchor, href)));
    }
  });
})();
