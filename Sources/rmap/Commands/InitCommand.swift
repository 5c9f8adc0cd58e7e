import Foundation
import RMap
import RMapAuthoring
import RMapHTTP

/// `rmap init PAYLOAD... [--url URL...] [-o FILE]`: write a commented mapping
/// inferred from sample payloads.
struct InitCommand: CLICommand {
    /// `--url`: http(s) URLs, in order.
    static let url = Option.repeated(
        "url", "url", "A URL to fetch once (GET) as a payload; the mapping's\nsource is then http with its site."
    ) { text throws(InvalidOptionValue) in
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
            throw InvalidOptionValue(text: text, reason: "expected an http(s) URL")
        }
        return url
    }
    /// `--output`.
    static let output = Option.text(
        "output", "file", short: "o",
        "Where to write the mapping (default: stdout); file\npaths in it are relative to its folder.")
    /// `--prefix`.
    static let prefix = Option.text("prefix", "prefix", "The entity prefix: --prefix CRM makes CRMPerson.")
    /// `--format`.
    static let format = Option<Format?>.choice(
        "format",
        "rails (default): records, wrapped or bare; jsonapi: JSON:API\ndocuments, an entity per resource type, relationships\nfrom linkage."
    )

    /// The payloads' form.
    enum Format: String, CaseIterable {
        /// Plain or Rails-wrapped records.
        case rails
        /// JSON:API compound documents.
        case jsonapi
    }

    static let spec = CommandSpec(
        name: "init",
        abstract: "Write a mapping inferred from sample JSON payloads.",
        positionals: Positionals(
            placeholder: "payload",
            help: "JSON payload files (a folder: its .json files); each names an\nentity by its file name or root key.",
            count: .any),
        options: [url, output, prefix, format],
        discussion: """
            Prints what it inferred and what it was unsure of to stderr, one 'inferred:' or
            'unsure:' line each; lines the mapping marks 'check:' deserve a look.
            """,
        exitStatuses: [
            (.success, "the mapping was written"),
            (.failure, "a payload could not be read, fetched or parsed, or the file not written"),
            (.usage, ExitCode.usageMeaning),
        ])

    /// The payload files.
    var payloads: [String]
    /// `--url`.
    var urls: [URL]
    /// `--output`.
    var output: String?
    /// `--prefix`.
    var prefix: String
    /// `--format`.
    var format: Format

    init(_ arguments: ParsedArguments) throws(UsageError) {
        payloads = arguments.positionals
        output = try arguments.value(Self.output)
        prefix = try arguments.value(Self.prefix) ?? ""
        urls = try arguments.value(Self.url)
        format = try arguments.value(Self.format) ?? .rails
        if payloads.isEmpty, urls.isEmpty {
            throw Self.spec.usageError("missing expected argument '<payload> ...' (or '--url <url>')")
        }
    }

    func run(_ context: CommandContext) async -> ExitCode {
        let directory = FileManager.default.currentDirectoryPath
        var samples: [PayloadSample] = []
        for argument in payloads {
            let files = PayloadSample.files(at: argument)
            guard !files.isEmpty else { return context.fail("no .json file in the folder \(argument)") }
            for path in files {
                if let problem = RegularFile.problem(at: path) {
                    return context.fail("cannot read the payload \(path): it \(problem)")
                }
                do {
                    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                    let document = try JSONReader.parse(bytes, origin: path)
                    samples.append(PayloadSample(origin: .file(path), document: document))
                } catch {
                    return context.fail("cannot read the payload \(path): \(error)")
                }
            }
        }
        let client = HTTPClient()
        for url in urls {
            let accept = format == .jsonapi ? [("Accept", DocumentFormat.jsonAPIMediaType)] : []
            let request = HTTPRequest(.get, url: url, headers: HTTPHeaders(accept))
            do {
                let document = try client.json(try await client.send(request), for: request)
                samples.append(PayloadSample(origin: .url(url.absoluteString), document: document))
            } catch {
                return context.fail(error.description)
            }
        }
        let mapping =
            format == .jsonapi
            ? JSONAPIInference(prefix: prefix).infer(samples) : MappingInference(prefix: prefix).infer(samples)
        for note in mapping.notes { context.errors.line(note.description) }
        let file = output.map { absolute($0, in: directory) }
        let folder = file.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } ?? directory
        let text = MappingWriter(folder: folder, currentDirectory: directory).text(mapping)
        guard let output, let file else {
            context.output.write(text)
            return .success
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        } catch {
            return context.fail("cannot write \(output): \(error.localizedDescription)")
        }
        context.errors.line("wrote \(output): \(mapping.entities.count) entities")
        return .success
    }

    private func absolute(_ path: String, in directory: String) -> String {
        DisplayPath.normalize(path.hasPrefix("/") ? path : directory + "/" + path)
    }
}
