import Foundation

// Entry point only: all code, and every closure libdbus or the daemon may call from its own
// threads, lives in other files (closures here would be main-actor isolated).
guard let options = BenchOptions.parse(Array(CommandLine.arguments.dropFirst())) else { exit(2) }
exit(await BenchRunner.run(options))
