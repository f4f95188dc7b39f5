import DBusKit
import FoundationEssentials
import Glibc
import Spawn

/// The GNOME Shell extension `focus@deeplinker.org` (SPEC §6): where its files are shipped, which
/// of its two formats this shell takes, and the shell's settings that enable it.
///
/// Shipped layout (the repository's `GnomeShell/focus@deeplinker.org/`, installed by
/// `scripts/install` as `<prefix>/share/deeplinker/gnome-shell/focus@deeplinker.org/`): `focus.js`
/// (the logic, one ES module), `gnome-43/` (GNOME 43–44 script and metadata) and `gnome-45/`
/// (GNOME 45+ module and metadata). An installed extension is `focus.js` plus one of the two.
struct GnomeExtension {
    static let uuid = "focus@deeplinker.org"
    /// The files an installed extension has, each written and removed by name.
    static let installedFiles = ["extension.js", "focus.js", "metadata.json"]
    static let settingsSchema = "org.gnome.shell"

    let environment: [String: String]

    var home: String { environment["HOME"] ?? "/" }
    var dataHome: String {
        if let value = environment["XDG_DATA_HOME"], value.hasPrefix("/") { return value }
        return home + "/.local/share"
    }

    /// Where the user's copy goes (the shell reads `$XDG_DATA_HOME/gnome-shell/extensions/<uuid>/`).
    var userDirectory: String { dataHome + "/gnome-shell/extensions/" + Self.uuid }
    /// Where a system-wide copy is (the Debian package installs it there).
    static func systemDirectories(environment: [String: String]) -> [String] {
        let dirs = (environment["XDG_DATA_DIRS"] ?? "/usr/local/share:/usr/share").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return dirs.map { $0 + "/gnome-shell/extensions/" + uuid }
    }

    /// The shipped files: `--from DIR`, else beside the installed program
    /// (`<prefix>/bin/deeplinker` → `<prefix>/share/deeplinker/gnome-shell/<uuid>`), else the
    /// system's share directory, else a source checkout the program was built in.
    static func shippedDirectory(option: String?, executable: String) throws(CLIFailure) -> String {
        if let option {
            guard isShipped(option) else {
                throw CLIFailure(.usage, "--from \(option): no focus.js, gnome-43/ and gnome-45/ there")
            }
            return option
        }
        let bin = parent(executable)
        var candidates = [parent(bin) + "/share/deeplinker/gnome-shell/" + uuid,
                          "/usr/share/deeplinker/gnome-shell/" + uuid]
        // A build tree (.build/debug/deeplinker): the checkout's own folder.
        var directory = bin
        while directory != "/" && !directory.isEmpty {
            candidates.append(directory + "/GnomeShell/" + uuid)
            directory = parent(directory)
        }
        guard let found = candidates.first(where: isShipped) else {
            throw CLIFailure(.failure, "cannot find the extension's files (looked in \(candidates.prefix(2).joined(separator: ", "))); pass --from DIR")
        }
        return found
    }

    /// The directory part of an absolute path (`/a/b` → `/a`, `/a` → `/`).
    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    static func isShipped(_ directory: String) -> Bool {
        ["focus.js", "gnome-43/extension.js", "gnome-45/extension.js"].allSatisfy { FileManager.default.fileExists(atPath: directory + "/" + $0) }
    }

    /// The format for a GNOME Shell major version: `gnome-43` (scripts) before 45, else `gnome-45`.
    static func format(shellMajor: Int) -> String { shellMajor >= 45 ? "gnome-45" : "gnome-43" }

    /// The major version in `gnome-shell --version`'s answer (`GNOME Shell 43.9` → 43).
    static func shellMajor(fromVersionOutput text: String) -> Int? {
        guard let word = text.split(whereSeparator: \.isWhitespace).last else { return nil }
        return Int(word.split(separator: ".").first ?? "")
    }

    // MARK: Settings

    /// A `gsettings get` string list (`['a', 'b']`, `@as []`) as an array.
    static func parseStringList(_ text: String) -> [String] {
        var body = text.trimmed
        if body.hasPrefix("@as") { body = String(body.dropFirst(3)).trimmed }
        guard body.hasPrefix("["), body.hasSuffix("]") else { return [] }
        var out: [String] = []
        var current = ""
        var quote: Character?
        var escaped = false
        for ch in body.dropFirst().dropLast() {
            if let q = quote {
                if escaped { current.append(ch); escaped = false }
                else if ch == "\\" { escaped = true }
                else if ch == q { out.append(current); current = ""; quote = nil }
                else { current.append(ch) }
            } else if ch == "'" || ch == "\"" {
                quote = ch
            }
        }
        return out
    }

    /// A string list in GVariant text form, for `gsettings set`.
    static func formatStringList(_ items: [String]) -> String {
        "[" + items.map { item in
            "'" + item.flatMap { $0 == "\\" || $0 == "'" ? ["\\", $0] : [$0] } + "'"
        }.joined(separator: ", ") + "]"
    }

    func readList(_ key: String) -> [String]? {
        guard let result = run("gsettings", ["get", Self.settingsSchema, key]), result.status == 0 else { return nil }
        return Self.parseStringList(result.output)
    }

    func writeList(_ key: String, _ items: [String]) throws(CLIFailure) {
        guard let result = run("gsettings", ["set", Self.settingsSchema, key, Self.formatStringList(items)]) else {
            throw CLIFailure(.failure, "gsettings is not installed: cannot set \(Self.settingsSchema) \(key)")
        }
        guard result.status == 0 else {
            throw CLIFailure(.failure, "gsettings set \(Self.settingsSchema) \(key) failed: \(result.output.trimmed)")
        }
    }

    /// Runs a tool found on PATH; nil when it is missing. Its stderr goes to ours.
    func run(_ name: String, _ arguments: [String]) -> (status: Int32, output: String)? {
        PathTool.run(name, arguments, environment: environment, standardError: .inherit)
    }

    // MARK: The running shell

    /// Calls a method of the running shell's `org.gnome.Shell.Extensions` interface; nil when no
    /// shell answers on this bus.
    static func callShell(_ member: String, busAddress: String?) async -> Bool? {
        guard let connection = try? DBusConnection(address: busAddress) else { return nil }
        defer { connection.close() }
        guard let reply = try? await connection.call(
            destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell.Extensions", member: member,
            arguments: [.string(uuid)], timeout: .seconds(5), noAutoStart: true) else { return nil }
        if case .boolean(let ok)? = reply.first { return ok }
        return nil
    }

    /// The running shell's state of the extension (1 enabled, 2 disabled, 3 error, 4 out of date,
    /// 6 initialized; GNOME's `ExtensionState`); nil when no shell answers or it does not know it.
    static func shellState(busAddress: String?, connection existing: DBusConnection? = nil) async -> Int? {
        guard let connection = existing ?? (try? DBusConnection(address: busAddress)) else { return nil }
        defer { if existing == nil { connection.close() } }
        guard let reply = try? await connection.call(
            destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell.Extensions",
            member: "GetExtensionInfo", arguments: [.string(uuid)], timeout: .seconds(2), noAutoStart: true),
            let info = reply.first?.variantDictionaryValue else { return nil }
        switch info["state"] {
        case .double(let value)?: return Int(value)
        case .int32(let value)?: return Int(value)
        case .uint32(let value)?: return Int(value)
        default: return nil
        }
    }
}
