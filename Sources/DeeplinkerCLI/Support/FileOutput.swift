import FoundationEssentials

/// Raw text to stdout, for output that must stay byte-exact (a desktop entry).
enum FileOutput {
    static func write(_ text: String) {
        Output.write(text, to: 1)
    }
}
