// Deeplinker's background script: a service worker in Chromium, an event page in Firefox.
// It is the only part that talks to the native host (org.deeplinker.native_host): it keeps the
// verified claims in storage for the content script, hands clicked links over, and owns the
// "Open in <app>" context menu items.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const HOST = "org.deeplinker.native_host";
/** Claims older than this are fetched again when a page asks. */
const CLAIMS_MAX_AGE_MS = 10 * 60 * 1000;
/** A click waits at most this long for the host before the browser follows the link. */
const NATIVE_TIMEOUT_MS = 8000;

/** One message to the native host; failures become a `handled: false` reply, never a throw. */
function native(message) {
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => resolve({ handled: false, reason: "timeout", detail: `the native host did not answer in ${NATIVE_TIMEOUT_MS} ms` }),
      NATIVE_TIMEOUT_MS);
    api.runtime.sendNativeMessage(HOST, message).then(
      (reply) => { clearTimeout(timer); resolve(reply ?? { handled: false, reason: "no-reply", detail: "the native host sent nothing" }); },
      (error) => {
        clearTimeout(timer);
        resolve({ handled: false, reason: "no-host", detail: String(error?.message ?? error) });
      });
  });
}

/** The host name in punycode, lowercase; null when it is not a valid host. */
function asciiHost(host) {
  try { return new URL(`https://${host}/`).hostname; } catch { return null; }
}

/** The match pattern of a claimed domain (`*.x` becomes `https://*.x/*`). */
function matchPattern(domain) {
  const wildcard = domain.startsWith("*.");
  const host = asciiHost(wildcard ? domain.slice(2) : domain);
  return host ? `https://${wildcard ? "*." : ""}${host}/*` : null;
}

/** One "Open in <app name>" item per app, shown on links to its verified domains. */
async function rebuildMenus(claims) {
  await api.contextMenus.removeAll();
  const apps = new Map();
  for (const claim of claims) {
    const pattern = matchPattern(claim.domain);
    if (!pattern) continue;
    const entry = apps.get(claim.app) ?? { name: claim.name || claim.app, patterns: [] };
    entry.patterns.push(pattern);
    apps.set(claim.app, entry);
  }
  for (const [app, { name, patterns }] of apps) {
    api.contextMenus.create(
      { id: `open:${app}`, title: `Open in ${name}`, contexts: ["link"], targetUrlPatterns: patterns },
      () => void api.runtime.lastError);
  }
}

let refreshing = null;

/** Fetches the claims from the host when they are stale (or `force`), once at a time. */
function refreshClaims(force) {
  refreshing ??= (async () => {
    try {
      const { claimsAt = 0 } = await api.storage.local.get("claimsAt");
      if (!force && Date.now() - claimsAt < CLAIMS_MAX_AGE_MS) return;
      const reply = await native({ type: "claims" });
      if (reply?.type === "claims" && Array.isArray(reply.claims)) {
        await api.storage.local.set({ claims: reply.claims, claimsAt: Date.now(), problem: "" });
        await rebuildMenus(reply.claims);
      } else {
        // Keep the last good claims; say why they could not be refreshed (shown in the popup).
        await api.storage.local.set({ problem: `${reply?.error ?? reply?.reason ?? "error"}: ${reply?.detail ?? ""}` });
      }
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

api.runtime.onInstalled.addListener(() => { refreshClaims(true); });
api.runtime.onStartup.addListener(() => { refreshClaims(true); });

api.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (sender.id !== api.runtime.id) return false;
  switch (message?.type) {
    case "refresh":
      refreshClaims(message.force === true).then(() => sendResponse({}), () => sendResponse({}));
      return true;
    case "open":
      // Only a page's content script hands links over; the page it came from is the sender's.
      if (!sender.tab) return false;
      native({ type: "open", url: String(message.url), from: String(sender.url ?? "") }).then((reply) => {
        if (reply?.handled !== true && reply?.reason === "not-verified") refreshClaims(true);
        sendResponse(reply);
      });
      return true;
    case "follow":
      // The host did not take a link meant for a new tab: open it the way the click would have.
      if (sender.tab && /^https?:/.test(String(message.url))) {
        api.tabs.create({ url: String(message.url), index: sender.tab.index + 1, openerTabId: sender.tab.id });
      }
      return false;
    default:
      return false;
  }
});

api.contextMenus.onClicked.addListener((info, tab) => {
  if (!String(info.menuItemId).startsWith("open:") || !info.linkUrl) return;
  native({ type: "open", url: info.linkUrl, from: info.pageUrl ?? "" }).then((reply) => {
    if (reply?.handled === true) return;
    const where = tab ? { index: tab.index + 1, openerTabId: tab.id } : {};
    api.tabs.create({ url: info.linkUrl, ...where });
  });
});
