import FuzzSupport
import RMap

/// libFuzzer's entry: the bytes are `rmap`'s arguments, NUL-separated. The
/// first picks the subcommand as the command line does; the rest are parsed
/// against its spec and made into the command, which is not run. Parsing may
/// only fail with a ``UsageError`` whose report is printable.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let arguments = FuzzInput.arguments(data, size)
    guard let name = arguments.first else { return 0 }
    let commands = CommandLineInterface.commands
    guard let entry = commands.first(where: { $0.spec.name == name }) else {
        _ = Suggestion.hint(for: name, in: commands.map(\.spec.name))
        return 0
    }
    let rest = Array(arguments.dropFirst())
    guard !HelpRequest.isPresent(in: rest) else { return 0 }
    do {
        _ = try entry.make(ArgumentParser(spec: entry.spec).parse(rest))
    } catch {
        precondition(error.report.hasPrefix("Error: "), "a usage error without its message")
    }
    return 0
}
