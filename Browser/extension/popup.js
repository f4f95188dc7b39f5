// The popup: each verified site with the app it opens in; unticking one keeps links to that site
// in the browser for good (stored as "kept").
"use strict";

const api = globalThis.browser ?? globalThis.chrome;

async function render() {
  const { claims = [], kept = [], problem = "" } = await api.storage.local.get(["claims", "kept", "problem"]);
  const list = document.getElementById("sites");
  list.replaceChildren();
  for (const claim of claims) {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = !kept.includes(claim.domain);
    box.dataset.domain = claim.domain;
    box.addEventListener("change", async () => {
      const { kept: current = [] } = await api.storage.local.get("kept");
      const others = current.filter((domain) => domain !== claim.domain);
      await api.storage.local.set({ kept: box.checked ? others : [...others, claim.domain] });
    });
    const site = document.createElement("span");
    site.textContent = claim.domain;
    const app = document.createElement("span");
    app.className = "app";
    app.textContent = `in ${claim.name || claim.app}`;
    const label = document.createElement("label");
    label.append(box, site, app);
    const item = document.createElement("li");
    item.append(label);
    list.append(item);
  }
  document.getElementById("empty").hidden = claims.length > 0;
  const problemLine = document.getElementById("problem");
  problemLine.hidden = problem === "";
  problemLine.textContent = problem;
}

document.getElementById("refresh").addEventListener("click", async () => {
  await api.runtime.sendMessage({ type: "refresh", force: true });
  await render();
});
api.storage.onChanged.addListener(render);
render();
