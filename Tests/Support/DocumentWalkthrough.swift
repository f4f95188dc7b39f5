import Foundation

/// The shell steps a document marks to be run as written: each fenced block opened with
/// ```` ```sh walkthrough ````, in document order.
public struct DocumentWalkthrough: Sendable {
    /// One marked block: its first line in the document (1-based) and its text.
    public struct Step: Sendable, CustomStringConvertible {
        public let line: Int
        public let script: String
        public var description: String { "line \(line):\n\(script)" }
    }

    /// The info string of a marked block.
    public static let fence = "```sh walkthrough"

    public let path: String
    public let steps: [Step]

    /// Reads `path` (relative to the repository root) and collects its marked blocks; a marked
    /// block with no closing fence is an error.
    public init(repositoryFile path: String) throws {
        self.path = path
        let lines = try TestFiles.read(TestFiles.repository(path)).split(separator: "\n", omittingEmptySubsequences: false)
        var steps: [Step] = []
        var open: (line: Int, text: [Substring])?
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var block = open {
                if trimmed == "```" {
                    steps.append(Step(line: block.line, script: block.text.joined(separator: "\n") + "\n"))
                    open = nil
                } else {
                    block.text.append(line)
                    open = block
                }
            } else if trimmed == Self.fence {
                open = (index + 2, [])
            }
        }
        if let block = open { throw DocumentWalkthroughError("\(path): the block at line \(block.line - 1) has no closing fence") }
        self.steps = steps
    }

    /// Every step's text, joined.
    public var text: String { steps.map(\.script).joined() }
}

public struct DocumentWalkthroughError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
