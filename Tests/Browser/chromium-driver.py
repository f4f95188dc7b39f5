#!/usr/bin/python3
"""Headless Chromium for Deeplinker's browser tests and benchmark.

Run inside a network namespace of its own (`unshare --net`, see run-in-netns): it serves the test
pages over HTTPS on 127.0.0.1:443, maps every host name there, starts Chromium with the unpacked
extension, and then answers one JSON command per stdin line with one JSON line on stdout.

argv[1] is a JSON object:
  extension      the unpacked extension's folder
  extension_id   its id (from its key)
  user_data_dir  Chromium's profile; NativeMessagingHosts/ in it is where Chromium finds the host
  links          [{"id", "href", "target"?}]: the links on every page served

Commands ({"cmd": ...}): ready(domain) waits until the extension's popup lists the domain (the
claims are loaded); get(url); click(id, modifier?) clicks a link on the current page; wait_url(url)
waits until the tab is on that URL; wait_request(request)
waits until the server was asked for host/path; state gives the current URL, the number of tabs and every
path the server was asked for; text gives the page's text; quit. Times are time.monotonic_ns() (CLOCK_MONOTONIC).
"""
import json
import os
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

config = json.loads(sys.argv[1])
requests = []
requests_lock = threading.Lock()


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


def chromium():
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
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def main():
    with tempfile.TemporaryDirectory(prefix="deeplinker-pages-") as directory:
        serve(directory)
        driver = chromium()
        wait = WebDriverWait(driver, 30)
        print(json.dumps({"started": True}), flush=True)
        for line in sys.stdin:
            command = json.loads(line)
            name = command["cmd"]
            try:
                if name == "ready":
                    driver.get(f"chrome-extension://{config['extension_id']}/popup.html")
                    selector = f'input[data-domain="{command["domain"]}"]'
                    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, selector))
                    answer = {"ok": True}
                elif name == "get":
                    start = time.monotonic_ns()
                    driver.get(command["url"])
                    answer = {"url": driver.current_url, "started": start, "loaded": time.monotonic_ns()}
                elif name == "click":
                    element = driver.find_element(By.ID, command["id"])
                    modifier = {"ctrl": Keys.CONTROL, "shift": Keys.SHIFT}.get(command.get("modifier"))
                    clicked = time.monotonic_ns()
                    if modifier:
                        ActionChains(driver).key_down(modifier).click(element).key_up(modifier).perform()
                    else:
                        element.click()
                    answer = {"clicked": clicked}
                elif name == "wait_url":
                    wait.until(lambda d: d.current_url == command["url"])
                    answer = {"url": driver.current_url, "at": time.monotonic_ns()}
                elif name == "wait_request":
                    def served(_):
                        with requests_lock:
                            return command["request"] in requests
                    wait.until(served)
                    answer = {"at": time.monotonic_ns()}
                elif name == "state":
                    with requests_lock:
                        served = list(requests)
                    answer = {"url": driver.current_url, "tabs": len(driver.window_handles), "requests": served}
                elif name == "text":
                    answer = {"text": driver.find_element(By.TAG_NAME, "body").text}
                elif name == "quit":
                    driver.quit()
                    print(json.dumps({"ok": True}), flush=True)
                    return
                else:
                    answer = {"error": f"unknown command {name}"}
            except Exception as error:  # reported to the test, which fails with it
                answer = {"error": f"{type(error).__name__}: {error}"}
            print(json.dumps(answer), flush=True)
        driver.quit()


main()
