// rmap-doc-examples NAME: runs one Swift example of README.md or docs/ (its
// code is compiled into this program by the DocExamples plugin), in the
// current directory. `rmap-doc-examples list` prints the names.
import Foundation

let name = CommandLine.arguments.dropFirst().first ?? "list"
if name == "list" {
    print(docExampleNames.joined(separator: "\n"))
    exit(0)
}
do {
    guard try await runDocExample(named: name) else {
        FileHandle.standardError.write(Data("no example '\(name)'; see 'rmap-doc-examples list'\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
