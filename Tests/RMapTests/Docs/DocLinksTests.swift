import Foundation
import Testing

/// The pages a user reads name only what the project has: every Markdown link
/// to a page (and its section) resolves, and every `NAME.md` a page mentions is
/// a file of the repository.
@Suite("Docs: links and the files they name")
struct DocLinksTests {
    /// README.md and every page of docs/, relative to the repository.
    static let pages: [String] = {
        let docs =
            (try? FileManager.default.contentsOfDirectory(
                atPath: TestServers.repositoryRoot.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    /// Pages whose mentions are history: the performance log records what was measured against the
    /// files of its day (DESIGN.md, the design the project was built to), unchanged since.
    static let historical: Set = ["docs/performance-log.md"]

    @Test("every link to a page and its section resolves", arguments: pages)
    func links(page: String) throws {
        let text = try Self.read(page)
        let folder = URL(fileURLWithPath: page).deletingLastPathComponent().relativePath
        var broken: [String] = []
        for match in text.matches(of: /\]\(([^)\s]+)\)/) {
            let target = String(match.1)
            guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let file = parts[0].isEmpty ? page : Self.normalized(folder == "." ? parts[0] : folder + "/" + parts[0])
            guard FileManager.default.fileExists(atPath: Self.url(file).path) else {
                broken.append("\(target): no file \(file)")
                continue
            }
            if parts.count == 2, file.hasSuffix(".md"), !(try Self.anchors(in: Self.read(file)).contains(parts[1])) {
                broken.append("\(target): no section '#\(parts[1])' in \(file)")
            }
        }
        #expect(broken.isEmpty, "\(page): \(broken.joined(separator: "; "))")
    }

    @Test("every NAME.md a page mentions is a file of the repository", arguments: pages)
    func mentions(page: String) throws {
        guard !Self.historical.contains(page) else { return }
        let text = try Self.read(page)
        let folder = URL(fileURLWithPath: page).deletingLastPathComponent().relativePath
        var missing: Set<String> = []
        for name in Self.mentionedFiles(text) {
            let candidates = [name, folder + "/" + name, "docs/" + name].map(Self.normalized)
            if !candidates.contains(where: { FileManager.default.fileExists(atPath: Self.url($0).path) }) {
                missing.insert(name)
            }
        }
        #expect(missing.isEmpty, "\(page) mentions \(missing.sorted()), which the repository does not have")
    }

    @Test("a mention of a file the repository lacks, and a link to a missing section, are found")
    func detection() throws {
        #expect(
            Self.mentionedFiles("see (MAPPING.md §6), [push](push.md#x) and docs/cli.md.") == [
                "MAPPING.md", "docs/cli.md",
            ])
        #expect(!FileManager.default.fileExists(atPath: Self.url("MAPPING.md").path))
        #expect(try Self.anchors(in: Self.read("docs/cli.md")).contains("the-run-json-document"))
        #expect(try !Self.anchors(in: Self.read("docs/cli.md")).contains("no-such-section"))
    }

    // MARK: - Helpers

    /// The `NAME.md` paths mentioned in `text` outside link targets (`MAPPING.md`, `docs/cli.md`).
    static func mentionedFiles(_ text: String) -> [String] {
        let withoutTargets = text.replacing(/\]\([^)\s]+\)/, with: "]")
        return (" " + withoutTargets).matches(of: /[^\w\/.#-]([\w.\/-]*[A-Za-z]\.md)\b/).map { String($0.1) }
    }

    private static func url(_ path: String) -> URL { TestServers.repositoryRoot.appendingPathComponent(path) }

    private static func read(_ page: String) throws -> String { try String(contentsOf: url(page), encoding: .utf8) }

    /// `docs/../README.md` as `README.md`.
    private static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    /// The anchors GitHub gives a page's headings (lower case, punctuation dropped, spaces as `-`),
    /// and those a page sets itself (`<a id="credentials"></a>`).
    static func anchors(in markdown: String) -> Set<String> {
        var anchors = Set(markdown.matches(of: /<a id="([^"]+)">/).map { String($0.1) })
        var fenced = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle() }
            guard !fenced, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            let kept = title.filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
            anchors.insert(kept.replacingOccurrences(of: " ", with: "-"))
        }
        return anchors
    }
}
