// Deeplinker's content script: hands a plain left click on a link to another site's verified
// (or user-approved) domain to the app that claims it (through the background script and the native host). Every
// other navigation (typed URLs, bookmarks, reloads, back and forward, modifier and middle clicks,
// links within the app's own site, links the page handles itself) is never touched. If the app
// does not take the link, the browser follows it as usual.
"use strict";

(() => {
  const api = globalThis.browser ?? globalThis.chrome;
  /** [{app, name, domain, verdict}], every claim; kept: domains the user keeps in the browser. */
  let claims = [];
  let kept = [];
  /** The verdicts whose links are handed over: checked by `deeplinker verify`, or approved by the user. */
  const HANDED_OVER = ["verified", "approved"];

  // The stored claims, then the daemon's own as of this page load (the background script asks
  // the native host), so a verdict recorded since the last page counts at this page's clicks. A
  // click before both are read is held until they are; without a host the stored claims decide.
  const stored = api.storage.local.get(["claims", "kept"]).then((values) => {
    claims = values.claims ?? [];
    kept = values.kept ?? [];
  }, () => {});
  const fresh = api.runtime.sendMessage({ type: "refresh" }).then(
    (reply) => { if (Array.isArray(reply?.claims)) return reply.claims; }, () => {});
  const loaded = Promise.all([stored, fresh]).then(([, current]) => { if (current) claims = current; });
  let isLoaded = false;
  loaded.then(() => { isLoaded = true; });
  api.storage.onChanged.addListener((changes, area) => {
    if (area !== "local") return;
    if (changes.claims) claims = changes.claims.newValue ?? [];
    if (changes.kept) kept = changes.kept.newValue ?? [];
  });

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

  /** Whether a link to `link` clicked on a page of `page` (both hosts) goes to its app: the
   *  native host's rule (one app claims it, verified or approved), and not kept or within the site. */
  function handedOver(link, page) {
    const covering = claims.filter((claim) => covers(claim.domain, link));
    const apps = new Set(covering.map((claim) => claim.app));
    if (apps.size !== 1) return false; // unclaimed, or claimed by several apps
    if (!covering.some((claim) => HANDED_OVER.includes(claim.verdict))) return false;
    if (covering.some((claim) => kept.includes(claim.domain))) return false;
    if (link === page) return false;
    const [app] = apps;
    // A link within the app's own site stays, as universal links do on iOS.
    return !claims.some((claim) => claim.app === app && HANDED_OVER.includes(claim.verdict) && covers(claim.domain, page));
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
