// Loads Browser/extension/background.js under node with stand-ins for the extension APIs it uses,
// and checks who may approve or revoke: only the extension's own popup page. Prints one JSON
// line: {"results": [{"case", "reply", "sent"}]}, where `sent` lists the messages that reached
// the native host port. Run: node background-gate.js PATH/TO/background.js
"use strict";
const fs = require("fs");
const vm = require("vm");

const EXTENSION = "chrome-extension://idefdpeedpfnllcafaebolkhimemigmc/";
const sent = [];
let listener = null;
const event = () => ({ addListener() {} });
const chrome = {
  runtime: {
    id: "idefdpeedpfnllcafaebolkhimemigmc",
    getURL: (path) => EXTENSION + path,
    onInstalled: event(), onStartup: event(),
    onMessage: { addListener(f) { listener = f; } },
    connectNative() {
      const messages = [];
      return {
        onMessage: { addListener(f) { messages.push(f); } },
        onDisconnect: { addListener() {} },
        postMessage(message) {
          sent.push(message);
          // Answer as the host does: the claims after the change.
          setTimeout(() => messages.forEach((f) => f({ type: "claims", claims: [] })), 0);
        },
        disconnect() {},
      };
    },
  },
  storage: { local: { get: async () => ({}), set: async () => {} } },
  contextMenus: { removeAll: async () => {}, create() {}, onClicked: event() },
  tabs: { create() {} },
};
vm.runInNewContext(fs.readFileSync(process.argv[2], "utf8"), { chrome, setTimeout, clearTimeout, URL, console, JSON, Promise, String, Array });

const approve = { type: "approve", app: "com.example.Apartments", domain: "apartments.test" };
const cases = [
  ["content script", { id: chrome.runtime.id, url: "https://other.test/start", tab: { id: 1, index: 0 } }],
  ["content script on a page named like the popup", { id: chrome.runtime.id, url: "https://other.test/popup.html", tab: { id: 1, index: 0 } }],
  ["another extension", { id: "abcdefghijklmnopabcdefghijklmnop", url: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/popup.html" }],
  ["another extension page", { id: chrome.runtime.id, url: EXTENSION + "other.html" }],
  ["popup", { id: chrome.runtime.id, url: EXTENSION + "popup.html" }],
  ["popup as a page", { id: chrome.runtime.id, url: EXTENSION + "popup.html?site=apartments.test", tab: { id: 2, index: 1 } }],
];
(async () => {
  const results = [];
  for (const [name, sender] of cases) {
    const before = sent.length;
    const reply = await new Promise((resolve) => {
      const async = listener(approve, sender, resolve);
      if (!async) setTimeout(() => resolve(undefined), 10);
    });
    results.push({ case: name, reply: reply ?? null, sent: sent.slice(before) });
  }
  console.log(JSON.stringify({ results }));
})();
