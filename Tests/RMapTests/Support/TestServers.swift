import Foundation

/// The URLs of the real test servers: the Rails fixture app, the Django
/// fixture app and the fault-injection server.
///
/// The test command passes them in `RMAP_RAILS_URL` / `RMAP_DJANGO_URL` /
/// `RMAP_FAULT_URL`; otherwise the first test that needs a server runs the
/// project's script (`scripts/rails-server start`, `scripts/django-server start`,
/// `scripts/fault-server start`, which reuse a running server) once per process
/// and leaves the server running for the next run (`scripts/... stop` ends it).
/// A server that cannot start makes every test that needs it fail.
enum TestServers {
    /// A server that could not be started, with the script's output.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The Rails fixture app's URL, e.g. `http://127.0.0.1:41297`.
    static func rails() throws -> URL { try railsURL.get() }

    /// The fault server's URL.
    static func fault() throws -> URL { try faultURL.get() }

    /// The Django fixture app (Tests/Fixtures/django-app) and its OAuth2 test client.
    struct Django: Sendable {
        /// The app's URL, e.g. `http://127.0.0.1:41297`.
        var url: URL
        /// The seeded OAuth2 client's id and secret (client credentials grant).
        var clientID: String
        var clientSecret: String
        /// A refresh token issued to that client: good for one refresh until `POST /_reset`.
        var refreshToken: String
    }

    /// The Django fixture app: `RMAP_DJANGO_URL` and `RMAP_DJANGO_CLIENT_ID`, `_CLIENT_SECRET`,
    /// `_REFRESH_TOKEN`, or what `scripts/django-server start` prints.
    static func django() throws -> Django { try djangoApp.get() }

    private static let railsURL = locate(variable: "RMAP_RAILS_URL", script: "rails-server", key: "RAILS_URL")
    private static let faultURL = locate(variable: "RMAP_FAULT_URL", script: "fault-server", key: "FAULT_URL")
    private static let djangoApp = Result { () throws(StartFailure) -> Django in
        let keys = ["DJANGO_URL", "DJANGO_CLIENT_ID", "DJANGO_CLIENT_SECRET", "DJANGO_REFRESH_TOKEN"]
        let environment = ProcessInfo.processInfo.environment
        var values = Dictionary(
            uniqueKeysWithValues: keys.compactMap { key in
                environment["RMAP_\(key)"].flatMap { $0.isEmpty ? nil : (key, $0) }
            })
        if values["DJANGO_URL"] == nil { values = try start("django-server", keys: keys) }
        guard let text = values["DJANGO_URL"], let url = URL(string: text) else {
            throw StartFailure(description: "RMAP_DJANGO_URL is not a URL: \(values["DJANGO_URL"] ?? "")")
        }
        return Django(
            url: url, clientID: values["DJANGO_CLIENT_ID"] ?? "", clientSecret: values["DJANGO_CLIENT_SECRET"] ?? "",
            refreshToken: values["DJANGO_REFRESH_TOKEN"] ?? "")
    }

    /// The repository's root, from this file's path (Tests/RMapTests/Support/TestServers.swift).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func locate(variable: String, script: String, key: String) -> Result<URL, StartFailure> {
        if let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty {
            guard let url = URL(string: text) else {
                return .failure(StartFailure(description: "\(variable) is not a URL: \(text)"))
            }
            return .success(url)
        }
        return Result { () throws(StartFailure) in
            let text = try start(script, keys: [key])[key] ?? ""
            guard let url = URL(string: text) else {
                throw StartFailure(description: "scripts/\(script) start printed \(key)=\(text), not a URL")
            }
            return url
        }
    }

    /// Runs `scripts/<script> start` and reads the `KEY=value` lines it prints for `keys`
    /// (every one of them must be there).
    ///
    /// The script's end is seen as the end of its output, not by waiting for
    /// the process: Foundation's `Process` on Linux can miss a child's exit
    /// when waited for off the main thread, and block for good.
    private static func start(_ script: String, keys: [String]) throws(StartFailure) -> [String: String] {
        let process = Process()
        process.executableURL = repositoryRoot.appendingPathComponent("scripts/\(script)")
        process.arguments = ["start"]
        process.currentDirectoryURL = repositoryRoot
        // stderr goes to a file: a pipe read only later could fill up (apt-get output) and block the script.
        let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("rmap-\(script)-\(UUID()).log")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorsFile) }
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        do {
            let errors = try FileHandle(forWritingTo: errorsFile)
            defer { try? errors.close() }
            process.standardError = errors
            try process.run()
        } catch {
            throw StartFailure(description: "cannot run scripts/\(script): \(error)")
        }
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        var values: [String: String] = [:]
        for line in stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, keys.contains(String(parts[0])) { values[String(parts[0])] = String(parts[1]) }
        }
        if let missing = keys.first(where: { values[$0] == nil }) {
            let stderr = String(
                decoding: FileManager.default.contents(atPath: errorsFile.path) ?? Data(), as: UTF8.self)
            throw StartFailure(description: "scripts/\(script) start printed no \(missing)=...: \(stdout)\(stderr)")
        }
        return values
    }
}
