/// What one run of the `deeplinker` binary produced.
struct CLIResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String

    /// stdout's lines.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}
