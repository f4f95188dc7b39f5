import Foundation

/// Raw text to stdout, for output that must stay byte-exact (a desktop entry).
enum FileOutput {
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
