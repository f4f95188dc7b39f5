// The popup: the current site's claims with their verdicts, with Approve (the user gives the app
// that domain's links though the site does not list it) and Revoke; then each verified or approved
// site with the app it opens in, where unticking one keeps its links in the browser for good
// (stored as "kept"). Opening it asks the native host for the daemon's current verdicts.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const HANDED_OVER = ["verified", "approved"];

/** The host name in punycode, lowercase; null when it is not a valid host. */
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

/** The site the popup is about: `?site=HOST` when opened as a page, else the active tab's host
 *  (readable through `activeTab` while the user has the popup open). */
const currentSite = (async () => {
  const given = new URLSearchParams(location.search).get("site");
  if (given) return asciiHost(given);
  try {
    const [tab] = await api.tabs.query({ active: true, currentWindow: true });
    const url = new URL(tab?.url ?? "");
    return url.protocol === "https:" || url.protocol === "http:" ? url.hostname : null;
  } catch {
    return null;
  }
})();

/** Approve or revoke, from the user's own click on the popup only (a script's click is ignored). */
function decide(type, claim) {
  return async (event) => {
    if (!event.isTrusted) return;
    event.target.disabled = true;
    // The reply's claims are stored by then; a refusal is the problem line.
    await api.runtime.sendMessage({ type, app: claim.app, domain: claim.domain }).catch(() => null);
    await render();
  };
}

function siteItem(claim) {
  const item = document.createElement("li");
  const domain = document.createElement("span");
  domain.textContent = claim.domain;
  const app = document.createElement("span");
  app.className = "app";
  app.textContent = claim.name || claim.app;
  const verdict = document.createElement("span");
  verdict.className = `verdict ${claim.verdict}`;
  verdict.textContent = claim.verdict;
  verdict.title = claim.detail ?? "";
  item.dataset.verdict = claim.verdict;
  item.dataset.claim = `${claim.app} ${claim.domain}`;
  item.append(domain, app, verdict);
  if (claim.verdict !== "verified") {
    const button = document.createElement("button");
    button.type = "button";
    const approved = claim.verdict === "approved";
    button.textContent = approved ? "Revoke" : `Open in ${claim.name || claim.app}`;
    button.title = approved
      ? "Keep this domain's links in the browser again"
      : "Approve: open this domain's links in the app, though the site does not list it";
    button.dataset[approved ? "revoke" : "approve"] = claim.domain;
    button.addEventListener("click", decide(approved ? "revoke" : "approve", claim));
    item.append(button);
  }
  return item;
}

/** What the popup shows now, so that a render with nothing new leaves the page (and the
 *  element a user is about to click) as it is. */
let shown = "";

async function render() {
  const { claims = [], kept = [], problem = "" } = await api.storage.local.get(["claims", "kept", "problem"]);
  const site = await currentSite;
  const key = JSON.stringify([claims, kept, problem, site]);
  if (key === shown) return;
  shown = key;
  const here = site ? claims.filter((claim) => covers(claim.domain, site)) : [];
  document.getElementById("this-site").hidden = here.length === 0;
  document.getElementById("site").textContent = site ?? "";
  document.getElementById("site-claims").replaceChildren(...here.map(siteItem));

  const list = document.getElementById("sites");
  list.replaceChildren();
  const handedOver = claims.filter((claim) => HANDED_OVER.includes(claim.verdict));
  for (const claim of handedOver) {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = !kept.includes(claim.domain);
    box.dataset.domain = claim.domain;
    box.addEventListener("change", async () => {
      const { kept: current = [] } = await api.storage.local.get("kept");
      const others = current.filter((domain) => domain !== claim.domain);
      await api.storage.local.set({ kept: box.checked ? others : [...others, claim.domain] });
    });
    const domain = document.createElement("span");
    domain.textContent = claim.domain;
    const app = document.createElement("span");
    app.className = "app";
    app.textContent = `in ${claim.name || claim.app}${claim.verdict === "approved" ? " (approved by you)" : ""}`;
    const label = document.createElement("label");
    label.append(box, domain, app);
    const item = document.createElement("li");
    item.append(label);
    list.append(item);
  }
  document.getElementById("empty").hidden = handedOver.length > 0;
  const problemLine = document.getElementById("problem");
  problemLine.hidden = problem === "";
  problemLine.textContent = problem;
}

document.getElementById("refresh").addEventListener("click", async () => {
  await api.runtime.sendMessage({ type: "refresh" });
  await render();
});
api.storage.onChanged.addListener(render);
render();
// The verdicts as the daemon has them now: a change re-renders through storage.onChanged.
// `data-refreshed` on the body says the popup shows them (the tests wait for it).
api.runtime.sendMessage({ type: "refresh" }).catch(() => {}).then(render).then(() => { document.body.dataset.refreshed = "true"; });
