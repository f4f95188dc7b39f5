// Deeplinker's background script: a service worker in Chromium, an event page in Firefox.
// It is the only part that talks to the native host (org.deeplinker.native_host), over one
// `connectNative` port that serves the whole session (a port keeps the worker alive, and a closed
// port is opened again by the next message). It keeps the claims in storage for the content
// script, hands clicked links over, passes the popup's approvals on, and owns the
// "Open in <app>" context menu items.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const HOST = "org.deeplinker.native_host";
/** A message waits at most this long for the host before the browser goes on without it. */
const NATIVE_TIMEOUT_MS = 8000;
/** The verdicts whose links are handed over: checked by `deeplinker verify`, or approved by the user. */
const HANDED_OVER = ["verified", "approved"];
/** The only extension page that may approve or revoke: the popup, after the user's click. */
const POPUP_URL = api.runtime.getURL("popup.html");

/** The open port, or null; replies come back in the order of the messages (the host answers one at a time). */
let port = null;
/** The messages sent on `port` and not yet answered: [{resolve, timer}], oldest first. */
const waiting = [];

/** Ends `closing` (if it is still the port) and answers every waiting message with `reply`. */
function dropPort(closing, reply) {
  if (port !== closing) return;
  port = null;
  for (const entry of waiting.splice(0)) {
    clearTimeout(entry.timer);
    entry.resolve(reply);
  }
}

/** Opens the port to the host; a host that is missing or exits closes it, with the reason. */
function connect() {
  const opened = api.runtime.connectNative(HOST);
  opened.onMessage.addListener((reply) => {
    const entry = waiting.shift();
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.resolve(reply ?? { handled: false, reason: "no-reply", detail: "the native host sent nothing" });
  });
  opened.onDisconnect.addListener((closed) => {
    const why = api.runtime.lastError?.message ?? closed?.error?.message ?? "the native host exited";
    dropPort(opened, { handled: false, reason: "no-host", detail: String(why) });
  });
  return opened;
}

/** One message to the native host; failures become a `handled: false` reply, never a throw. */
function native(message) {
  return new Promise((resolve) => {
    let current;
    try {
      current = port ??= connect();
    } catch (error) {
      resolve({ handled: false, reason: "no-host", detail: String(error?.message ?? error) });
      return;
    }
    const entry = { resolve, timer: 0 };
    entry.timer = setTimeout(() => {
      // Later replies would no longer match their messages: start again with a new host.
      const reply = { handled: false, reason: "timeout", detail: `the native host did not answer in ${NATIVE_TIMEOUT_MS} ms` };
      dropPort(current, reply);
      try { current.disconnect(); } catch { /* already closed */ }
    }, NATIVE_TIMEOUT_MS);
    waiting.push(entry);
    try {
      current.postMessage(message);
    } catch (error) {
      dropPort(current, { handled: false, reason: "no-host", detail: String(error?.message ?? error) });
    }
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

/** One "Open in <app name>" item per app, shown on links to its verified or approved domains. */
async function rebuildMenus(claims) {
  await api.contextMenus.removeAll();
  const apps = new Map();
  for (const claim of claims) {
    if (!HANDED_OVER.includes(claim.verdict)) continue;
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

/** Stores a claims reply, the verified and the unverified claims in one list (each has its
 *  verdict), only when it changed, so pages are not told of every load; else the problem. */
async function store(reply) {
  if (reply?.type === "claims" && Array.isArray(reply.claims)) {
    const claims = [...reply.claims, ...(Array.isArray(reply.unverified) ? reply.unverified : [])];
    const { claims: before = null, problem = "" } = await api.storage.local.get(["claims", "problem"]);
    if (JSON.stringify(before) !== JSON.stringify(claims)) {
      await api.storage.local.set({ claims });
      await rebuildMenus(claims);
    }
    if (problem !== "") await api.storage.local.set({ problem: "" });
    return claims;
  }
  // Keep the last good claims; say why they could not be refreshed (shown in the popup).
  await api.storage.local.set({ problem: `${reply?.error ?? reply?.reason ?? "error"}: ${reply?.detail ?? ""}` });
  return null;
}

/** Asks the host for the claims as the daemon has them now; null when it could not answer. */
async function refreshClaims() {
  return store(await native({ type: "claims" }));
}

api.runtime.onInstalled.addListener(() => { refreshClaims(); });
api.runtime.onStartup.addListener(() => { refreshClaims(); });

api.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (sender.id !== api.runtime.id) return false;
  switch (message?.type) {
    case "refresh":
      // Every page load and every opening of the popup: the host reads the daemon's verdicts
      // afresh, so one recorded since (by `verify` or an approval) counts at this page's clicks.
      refreshClaims().then((claims) => sendResponse({ claims }), () => sendResponse({ claims: null }));
      return true;
    case "open":
      // Only a page's content script hands links over; the page it came from is the sender's.
      if (!sender.tab) return false;
      native({ type: "open", url: String(message.url), from: String(sender.url ?? "") }).then((reply) => {
        if (reply?.handled !== true && reply?.reason === "not-verified") refreshClaims();
        sendResponse(reply);
      });
      return true;
    case "approve":
    case "revoke":
      // Only the extension's own popup may approve or revoke, never a content script (whose sender
      // is the page) nor a web page (which cannot message the extension at all).
      if (String(sender.url ?? "").split(/[?#]/)[0] !== POPUP_URL) {
        sendResponse({ type: "error", error: "not-allowed", detail: "only the Deeplinker popup can approve or revoke a domain" });
        return false;
      }
      native({ type: message.type, app: String(message.app), domain: String(message.domain) })
        .then(store)
        .then((claims) => sendResponse({ claims }), () => sendResponse({ claims: null }));
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
