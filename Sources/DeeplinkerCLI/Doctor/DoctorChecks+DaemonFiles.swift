import FoundationEssentials

/// Which files doctor checks (the running daemon's own, SPEC §7) and the program a browser host
/// wrapper starts.
extension DoctorChecks {
    /// The route-file directories and state directory the running daemon uses (its
    /// `RouteDirectories` and `StateDirectory`); doctor checks those files, not the default path.
    public static func daemonFiles(
        routeDirectories: [String], stateDirectory: String, stateExists: Bool, install: DoctorInstall = .unknown
    ) -> DoctorCheck {
        let name = "daemon files"
        guard stateExists else {
            return .fail(name, "the running daemon's state directory \(stateDirectory) does not exist",
                         fix: "restart the daemon so that it makes it again: \(install.restartDaemon)")
        }
        return .pass(name, "route files from \(routeDirectories.joined(separator: ", ")); state in \(stateDirectory)")
    }

    /// The program a native-host wrapper script (`install-browser`'s `exec '<deeplinker>'
    /// native-host "$@"`) starts, unquoted; nil when the text is no such wrapper.
    public static func wrapperProgram(_ text: String) -> String? {
        guard text.hasPrefix("#!") else { return nil }
        for line in text.split(whereSeparator: \.isNewline) {
            let words = line.trimmed
            guard words.hasPrefix("exec ") else { continue }
            return shellWord(String(words.dropFirst(5)))
        }
        return nil
    }

    /// The first word of a shell command line, with single quotes (and `'\''`) and double quotes undone.
    static func shellWord(_ text: String) -> String {
        var out = ""
        var quote: Character?
        var escaped = false
        for ch in text {
            if escaped { out.append(ch); escaped = false; continue }
            if let q = quote {
                if ch == q { quote = nil } else if ch == "\\" && q == "\"" { escaped = true } else { out.append(ch) }
                continue
            }
            if ch == "'" || ch == "\"" { quote = ch } else if ch == "\\" { escaped = true } else if ch.isWhitespace { break } else { out.append(ch) }
        }
        return out
    }

    /// Each browser host wrapper (the manifests' `path`, when it is a wrapper script) starts a
    /// program that exists and is executable. `wrappers`: path → its text.
    public static func browserHostWrappers(_ wrappers: [(path: String, text: String)], isExecutable: (String) -> Bool) -> DoctorCheck? {
        let name = "browser host wrapper"
        var programs: [String] = []
        for wrapper in wrappers {
            guard let program = wrapperProgram(wrapper.text) else { continue }
            guard program.hasPrefix("/"), isExecutable(program) else {
                return .fail(name, "\(wrapper.path) starts \(program.isEmpty ? "nothing" : program), which does not exist or is not executable",
                             fix: "deeplinker install-browser (or install-browser --exec PATH with the installed deeplinker)")
            }
            programs.append("\(wrapper.path) starts \(program)")
        }
        return programs.isEmpty ? nil : .pass(name, programs.joined(separator: "; "))
    }
}
