import DeeplinkerRouteFiles

/// What a system-wide install (the Debian package, SPEC §9) put in place for every user, which
/// `doctor` counts as done rather than asking for the per-user step.
extension DoctorProbe {
    /// The package's native messaging host manifests that exist (missing ones are no failure:
    /// the user's own, from `install-browser`, serve as well).
    func systemManifests() -> [DoctorChecks.HostManifest] {
        BrowserHosts.Browser.allCases.compactMap { browser in
            let path = BrowserHosts.systemManifestPath(browser)
            guard let text = TextFile.lenientText(atPath: path) else { return nil }
            return DoctorChecks.HostManifest(browser: browser.rawValue, path: path, text: text, systemWide: true)
        }
    }
}
