import Foundation
import Glibc

/// Real HTTPS servers on loopback for `deeplinker verify` (SPEC §10): a command runs in a network
/// and mount namespace of its own (`unshare --net --mount`, so root), with an /etc/hosts that maps
/// the test's hosts to 127.0.0.1 and a CA bundle (the system's plus a test CA) bind-mounted over the
/// system's, while a Python `ssl` server answers on 127.0.0.1:443 with a certificate per host.
///
/// The hosts and what they serve at `/.well-known/deeplinker-app-links.json`:
/// `listed.test` lists com.listed.App; `unlisted.test` lists com.other.App only; `wild.test`
/// lists com.wild.App with subdomains; `nosub.test` lists com.nosub.App without; `redirect.test`
/// answers 301 to listed.test (whose file would list com.redirect.App); `big.test` serves a
/// 200 KiB file listing com.big.App; `broken.test` broken JSON; `untrusted.test` lists
/// com.untrusted.App under a certificate of another CA; `refused.test` is 127.0.0.3 where
/// nothing listens; `nowhere.test` does not resolve.
public enum HTTPSNamespace {
    /// Whether the namespace can be made here (root, `unshare`, python3 and openssl).
    public static let isAvailable: Bool = unavailableReason == nil

    /// Why the tests are skipped, nil when they run.
    public static let unavailableReason: String? = {
        guard getuid() == 0 else { return "needs root for unshare --net --mount (CI runs as root)" }
        for tool in ["/usr/bin/unshare", "/usr/bin/python3", "/usr/bin/openssl", "/usr/sbin/ip"] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is missing (scripts/setup installs it)"
        }
        guard (try? TestProcess.runBlocking("/usr/bin/unshare", ["--net", "--mount", "/bin/true"])) == 0 else {
            return "unshare --net --mount is refused here (a container without CAP_SYS_ADMIN?)"
        }
        return nil
    }()

    /// Runs `executable arguments` inside the namespace with the servers up; its result.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment)
        async throws -> TestProcess.Result
    {
        let directory = try TemporaryDirectory()
        let script = directory.appending("https-namespace.py")
        try harness.write(toFile: script, atomically: true, encoding: .utf8)
        return try await TestProcess.run(
            "/usr/bin/unshare", ["--net", "--mount", "/usr/bin/python3", script, directory.path, "--", executable] + arguments,
            environment: environment)
    }

    /// The namespace's inside: certificates, hosts, bundle, mounts, the server, then the command.
    static let harness = #"""
        import http.server, json, os, ssl, subprocess, sys, threading

        work, command = sys.argv[1], sys.argv[3:]
        os.chdir(work)

        def sh(*args):
            subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

        trusted = ["listed.test", "unlisted.test", "wild.test", "nosub.test", "redirect.test", "big.test", "broken.test"]
        ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        sh("openssl", "req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=Deeplinker Test CA",
           "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
        sh("openssl", "req", *ec, "-keyout", "host.key", "-out", "host.csr", "-subj", "/CN=listed.test")
        with open("san.ext", "w") as f:
            f.write("subjectAltName=" + ",".join("DNS:" + h for h in trusted) + "\n")
        sh("openssl", "x509", "-req", "-in", "host.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
           "-out", "host.crt", "-days", "2", "-extfile", "san.ext")
        sh("openssl", "req", "-x509", *ec, "-keyout", "other.key", "-out", "other.crt", "-days", "2", "-subj", "/CN=untrusted.test",
           "-addext", "subjectAltName=DNS:untrusted.test")
        with open("hosts", "w") as f:
            f.write("127.0.0.1 localhost " + " ".join(trusted + ["untrusted.test"]) + "\n127.0.0.3 refused.test\n")
        with open("/etc/ssl/certs/ca-certificates.crt") as system, open("bundle.crt", "w") as f:
            f.write(system.read() + open("ca.crt").read())
        sh("ip", "link", "set", "lo", "up")
        sh("mount", "--bind", "hosts", "/etc/hosts")
        sh("mount", "--bind", "bundle.crt", "/etc/ssl/certs/ca-certificates.crt")

        def listing(app, **extra):
            return json.dumps({"apps": [dict(id=app, **extra)]}).encode()

        path = "/.well-known/deeplinker-app-links.json"
        answers = {
            "listed.test": (200, {}, listing("com.listed.App")),
            "unlisted.test": (200, {}, listing("com.other.App", subdomains=True)),
            "wild.test": (200, {}, listing("com.wild.App", subdomains=True)),
            "nosub.test": (200, {}, listing("com.nosub.App")),
            "redirect.test": (301, {"Location": "https://listed.test" + path}, b""),
            "big.test": (200, {}, json.dumps({"apps": [{"id": "com.big.App"}], "padding": "x" * 200 * 1024}).encode()),
            "broken.test": (200, {}, b'{"apps": [{"id": "com.broken.App"'),
            "untrusted.test": (200, {}, listing("com.untrusted.App")),
        }

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                host = (self.headers.get("Host") or "").split(":")[0]
                status, headers, body = answers.get(host, (404, {}, b"")) if self.path == path else (404, {}, b"")
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except OSError:
                    pass  # the client stopped reading (the 128 KiB cap)
            def log_message(self, *args):
                pass

        def context(cert, key):
            c = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            c.load_cert_chain(cert, key)
            return c
        main, other = context("host.crt", "host.key"), context("other.crt", "other.key")
        main.sni_callback = lambda sock, name, _: setattr(sock, "context", other) if name == "untrusted.test" else None

        class Server(http.server.ThreadingHTTPServer):
            def handle_error(self, request, address):
                pass  # failed handshakes (the untrusted certificate) are the point of some cases

        server = Server(("127.0.0.1", 443), Handler)
        server.socket = main.wrap_socket(server.socket, server_side=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        result = subprocess.run(command, capture_output=True)
        sys.stdout.buffer.write(result.stdout)
        sys.stderr.buffer.write(result.stderr)
        sys.exit(result.returncode)
        """#
}
