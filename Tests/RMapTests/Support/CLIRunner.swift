import Foundation
import RMap
import Testing

/// What one run of the `rmap` binary printed and returned.
struct CLIResult: Sendable {
    /// Everything written to standard output.
    var stdout: String
    /// Everything written to standard error.
    var stderr: String
    /// The exit status.
    var status: Int32
}

/// Runs the built `rmap` executable as a user would: arguments, working
/// directory, environment and standard input under the test's control.
///
/// The binary sits beside the test bundle in `.build/<triple>/<config>/`;
/// `RMAP_BINARY` overrides where it is looked for.
enum CLIRunner {
    /// `Tests/Fixtures/cli`.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/cli")

    /// The `rmap` executable.
    ///
    /// With `RMAP_CLI_TESTS=ran` (the address-sanitizer pass of `scripts/test --full`, after
    /// the pass that ran every CLI test against the release binary), the test asking for it is
    /// cancelled: that pass runs the in-process tests only.
    static func binary() throws -> URL {
        try cancelWhenRan()
        if let path = ProcessInfo.processInfo.environment["RMAP_BINARY"] { return URL(fileURLWithPath: path) }
        let beside = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("rmap")
        let candidates = [
            beside,
            URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../../.build/debug/rmap").standardized,
        ].compactMap { $0 }
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "no rmap executable at \(candidates.map(\.path)); run `swift build` first")
    }

    /// Cancels the current test when this run's CLI tests ran in an earlier pass (`RMAP_CLI_TESTS=ran`).
    private static func cancelWhenRan() throws {
        guard ProcessInfo.processInfo.environment["RMAP_CLI_TESTS"] == "ran", Test.current != nil else { return }
        try Test.cancel("the CLI tests ran against the release binary in this run's first pass")
    }

    /// Runs `rmap arguments...` (or another program) and waits for it, holding
    /// one of the ``ProcessSlots`` and a thread of its own meanwhile.
    ///
    /// - Parameters:
    ///   - executable: a program to run instead of `rmap` (e.g. `script`, to give `rmap` a terminal).
    ///   - directory: the working directory (default: the CLI fixtures).
    ///   - environment: variables added to (or, with `nil`, removed from) this process's environment.
    ///   - stdin: text on standard input (default: empty).
    static func run(
        _ arguments: [String], executable: String? = nil, in directory: URL = fixtures,
        environment: [String: String?] = [:], stdin: String = ""
    ) async throws -> CLIResult {
        try cancelWhenRan()
        return try await ProcessSlots.shared.holding {
            try await DedicatedThread.run {
                try runBlocking(
                    arguments, executable: executable, in: directory, environment: environment, stdin: stdin)
            }.get()
        }
    }

    /// ``run(_:executable:in:environment:stdin:)`` on the calling thread, which
    /// it blocks until the program ends: only for a thread that is not one of
    /// Swift's cooperative pool, holding a slot already.
    static func runBlocking(
        _ arguments: [String], executable: String? = nil, in directory: URL = fixtures,
        environment: [String: String?] = [:], stdin: String = ""
    ) throws -> CLIResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rmap-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("stdin")
        let output = scratch.appendingPathComponent("stdout")
        let errors = scratch.appendingPathComponent("stderr")
        try Data(stdin.utf8).write(to: input)
        try Data().write(to: output)
        try Data().write(to: errors)

        let process = Process()
        process.executableURL = try executable.map(URL.init(fileURLWithPath:)) ?? binary()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        process.environment = variables
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        return CLIResult(
            stdout: try String(contentsOf: output, encoding: .utf8),
            stderr: try String(contentsOf: errors, encoding: .utf8),
            status: process.terminationStatus)
    }

    /// The text of a file in the CLI fixtures.
    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    }
}

/// A directory removed when the value is released: a working directory for
/// runs that write files or need mapping files of their own.
final class TemporaryDirectory {
    /// The directory.
    let url: URL

    /// Creates an empty directory.
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("rmap-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes a file in the directory.
    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }
}
