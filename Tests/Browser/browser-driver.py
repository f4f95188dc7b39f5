#!/usr/bin/python3
"""Headless Chromium or Firefox for Deeplinker's browser tests and benchmark.

Run inside a network namespace of its own (`unshare --net`, see run-in-netns): it serves the test
pages over HTTPS on 127.0.0.1:443, sends every host name there, starts the browser with the
unpacked extension, and then answers one JSON command per stdin line with one JSON line on stdout.

argv[1] is a JSON object:
  browser        "chromium" (selenium and chromedriver) or "firefox" (Firefox ESR over Marionette,
                 the extension installed as a temporary add-on)
  extension      the unpacked extension's folder
  extension_id   its Chromium id (from its key); Firefox's comes from the manifest
  user_data_dir  the profile folder; for Chromium NativeMessagingHosts/ in it is where it finds the
                 host (Firefox reads ~/.mozilla/native-messaging-hosts)
  links          [{"id", "href", "target"?}]: the links on every page served

Commands ({"cmd": ...}): ready(domain) waits until the extension's popup lists the domain (the
claims are loaded); get(url); click(id or selector, modifier?) clicks an element of the current page; wait_url(url)
waits until the tab is on that URL; wait_request(request) waits until the server was asked for
host/path; state gives the current URL, the number of tabs and every host/path the server was
asked for; text gives the page's text; wait(selector) waits until the current page has such an
element; script(script) runs JavaScript in the current page as the page itself would (a promise is
awaited) and gives its JSON result; quit. Times are time.monotonic_ns() (CLOCK_MONOTONIC).
"""
import json
import os
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

config = json.loads(sys.argv[1])
requests = []
requests_lock = threading.Lock()
TIMEOUT = 30
FIREFOX_UUID = "6d1c1f9e-2a43-4d8e-9f3b-0d5e6c7a8b91"


def page(host, path):
    links = "\n".join(
        f'<p><a id="{link["id"]}" href="{link["href"]}"'
        + (f' target="{link["target"]}"' if link.get("target") else "")
        + f'>{link["id"]}</a></p>'
        for link in config["links"])
    return f"<!doctype html><html><head><meta charset=utf-8><title>{host}{path}</title></head>" \
           f"<body><h1>{host}{path}</h1>{links}</body></html>"


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        host = (self.headers.get("Host") or "").split(":")[0]
        with requests_lock:
            requests.append(f"{host}{self.path}")
        body = page(host, self.path).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def serve(directory):
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=deeplinker-test",
         "-keyout", key, "-out", cert], check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = ThreadingHTTPServer(("127.0.0.1", 443), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def until(condition, what):
    """Polls `condition` (a browser automation has no events to wait on) for at most TIMEOUT s."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.02)


class Chromium:
    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            f"--user-data-dir={config['user_data_dir']}",
            f"--load-extension={config['extension']}", f"--disable-extensions-except={config['extension']}",
            "--disable-features=DisableLoadExtensionCommandLineSwitch",
            "--host-resolver-rules=MAP * 127.0.0.1", "--ignore-certificate-errors",
        ]:
            options.add_argument(argument)
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.popup = f"chrome-extension://{config['extension_id']}/popup.html"

    def get(self, url):
        self.driver.get(url)

    def url(self):
        return self.driver.current_url

    def tabs(self):
        return len(self.driver.window_handles)

    def exists(self, selector):
        from selenium.webdriver.common.by import By
        return bool(self.driver.find_elements(By.CSS_SELECTOR, selector))

    def text(self):
        from selenium.webdriver.common.by import By
        return self.driver.find_element(By.TAG_NAME, "body").text

    def script(self, script):
        return self.driver.execute_script(script)

    def click(self, selector, modifier):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys
        element = self.driver.find_element(By.CSS_SELECTOR, selector)
        key = {"ctrl": Keys.CONTROL, "shift": Keys.SHIFT}.get(modifier)
        clicked = time.monotonic_ns()
        if key:
            ActionChains(self.driver).key_down(key).click(element).key_up(key).perform()
        else:
            element.click()
        return clicked

    def quit(self):
        self.driver.quit()


class Firefox:
    """Firefox ESR over its Marionette protocol (geckodriver is not in Debian): length-prefixed
    JSON over TCP, [0, id, command, params] → [1, id, error, result]."""

    ELEMENT = "element-6066-11e4-a52e-4f735466cecf"

    def __init__(self):
        profile = config["user_data_dir"]
        os.makedirs(profile, exist_ok=True)
        with open(os.path.join(profile, "user.js"), "w") as prefs:
            for name, value in [
                ("network.dns.forceResolve", "127.0.0.1"), ("browser.shell.checkDefaultBrowser", False),
                ("extensions.webextensions.uuids", json.dumps({"extension@deeplinker.org": FIREFOX_UUID})),
                ("datareporting.policy.dataSubmissionEnabled", False), ("browser.startup.homepage_override.mstone", "ignore"),
            ]:
                prefs.write(f"user_pref({json.dumps(name)}, {json.dumps(value)});\n")
        self.process = subprocess.Popen(
            ["/usr/bin/firefox-esr", "--headless", "--marionette", "-remote-allow-system-access", "--no-remote", "--profile", profile],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.socket = until(self._connect, "Marionette on port 2828")
        self.buffer = b""
        self.next_id = 0
        self._read()
        self.command("WebDriver:NewSession", {"acceptInsecureCerts": True})
        self.command("Addon:Install", {"path": config["extension"], "temporary": True})
        self.popup = f"moz-extension://{FIREFOX_UUID}/popup.html"

    @staticmethod
    def _connect():
        try:
            return socket.create_connection(("127.0.0.1", 2828))
        except OSError:
            return None

    def _read(self):
        while b":" not in self.buffer:
            self.buffer += self.socket.recv(65536)
        length, rest = self.buffer.split(b":", 1)
        while len(rest) < int(length):
            rest += self.socket.recv(65536)
        self.buffer = rest[int(length):]
        return json.loads(rest[:int(length)])

    def command(self, name, params=None):
        self.next_id += 1
        data = json.dumps([0, self.next_id, name, params or {}]).encode()
        self.socket.sendall(str(len(data)).encode() + b":" + data)
        while True:
            message = self._read()
            if message[0] == 1 and message[1] == self.next_id:
                if message[2]:
                    raise RuntimeError(f"{name}: {message[2]}")
                result = message[3]
                return result.get("value") if isinstance(result, dict) and "value" in result else result

    def get(self, url):
        if url.startswith("moz-extension:"):
            # WebDriver may not navigate a tab to an extension's page; the browser's own code may.
            self.command("Marionette:SetContext", {"value": "chrome"})
            try:
                self.command("WebDriver:ExecuteScript", {"script": "openTrustedLinkIn(arguments[0], 'current');", "args": [url]})
            finally:
                self.command("Marionette:SetContext", {"value": "content"})
            until(lambda: self.url() == url, url)
        else:
            self.command("WebDriver:Navigate", {"url": url})

    def url(self):
        return self.command("WebDriver:GetCurrentURL")

    def tabs(self):
        return len(self.command("WebDriver:GetWindowHandles"))

    def exists(self, selector):
        return bool(self.command("WebDriver:FindElements", {"using": "css selector", "value": selector}))

    def text(self):
        body = self.command("WebDriver:FindElement", {"using": "css selector", "value": "body"})
        return self.command("WebDriver:GetElementText", {"id": body[self.ELEMENT]})

    def script(self, script):
        return self.command("WebDriver:ExecuteScript", {"script": script, "args": []})

    def click(self, selector, modifier):
        element = self.command("WebDriver:FindElement", {"using": "css selector", "value": selector})
        key = {"ctrl": "\ue009", "shift": "\ue008"}.get(modifier)
        clicked = time.monotonic_ns()
        if key:
            self.command("WebDriver:PerformActions", {"actions": [
                {"type": "key", "id": "keyboard", "actions": [
                    {"type": "keyDown", "value": key}, {"type": "pause"}, {"type": "pause"}, {"type": "pause"},
                    {"type": "keyUp", "value": key}]},
                {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
                    {"type": "pause"}, {"type": "pointerMove", "origin": element, "x": 0, "y": 0},
                    {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}, {"type": "pause"}]},
            ]})
            self.command("WebDriver:ReleaseActions")
        else:
            self.command("WebDriver:ElementClick", {"id": element[self.ELEMENT]})
        return clicked

    def quit(self):
        try:
            self.command("Marionette:Quit", {"flags": ["eForceQuit"]})
        except Exception:
            pass
        self.process.wait(timeout=TIMEOUT)


def main():
    with tempfile.TemporaryDirectory(prefix="deeplinker-pages-") as directory:
        serve(directory)
        browser = Firefox() if config.get("browser") == "firefox" else Chromium()
        print(json.dumps({"started": True}), flush=True)
        for line in sys.stdin:
            command = json.loads(line)
            name = command["cmd"]
            try:
                if name == "ready":
                    browser.get(browser.popup)
                    selector = f'body[data-refreshed] input[data-domain="{command["domain"]}"]'
                    until(lambda: browser.exists(selector), f"the popup to list {command['domain']}")
                    answer = {"ok": True}
                elif name == "get":
                    start = time.monotonic_ns()
                    browser.get(command["url"])
                    answer = {"url": browser.url(), "started": start, "loaded": time.monotonic_ns()}
                elif name == "click":
                    selector = command.get("selector") or f'#{command["id"]}'
                    answer = {"clicked": browser.click(selector, command.get("modifier"))}
                elif name == "wait_url":
                    until(lambda: browser.url() == command["url"], command["url"])
                    answer = {"url": browser.url(), "at": time.monotonic_ns()}
                elif name == "wait_request":
                    def served():
                        with requests_lock:
                            return command["request"] in requests
                    until(served, f"a request for {command['request']}")
                    answer = {"at": time.monotonic_ns()}
                elif name == "state":
                    with requests_lock:
                        served = list(requests)
                    answer = {"url": browser.url(), "tabs": browser.tabs(), "requests": served}
                elif name == "text":
                    answer = {"text": browser.text()}
                elif name == "wait":
                    until(lambda: browser.exists(command["selector"]), command["selector"])
                    answer = {"ok": True}
                elif name == "script":
                    answer = {"result": json.dumps(browser.script(command["script"]))}
                elif name == "quit":
                    browser.quit()
                    print(json.dumps({"ok": True}), flush=True)
                    return
                else:
                    answer = {"error": f"unknown command {name}"}
            except Exception as error:  # reported to the test, which fails with it
                answer = {"error": f"{type(error).__name__}: {error}"}
            print(json.dumps(answer), flush=True)
        browser.quit()


main()
