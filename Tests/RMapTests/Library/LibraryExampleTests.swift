import Foundation
import RMap
import RMapSQLite
import Testing

/// Imports the example (`mappings/*.yml` over `samples/`) into an SQLite file,
/// then reads one person, her projects and their tasks back from the graph.
func describeAda(mappings: [String], store path: String) async throws -> [String] {
    let registry = PluginRegistry.standard()
    registry.registerSQLite()
    let model = try MappingLoader(catalog: registry.catalog).load(mappings)
    let store = PluginConfig(plugin: "sqlite", options: ["path": path])
    let result = try await Pipeline(model: model, registry: registry).run(RunOptions(store: store))
    let graph = result.graph

    // An object by entity and identity (an admin is found as a person too), typed values by attribute.
    guard let ada = graph.object(of: "CRMPerson", identity: [.int(1)]),
        case .string(let name)? = ada[attribute: "firstName"],
        case .date(let born)? = ada[attribute: "bornOn"]
    else { return [] }
    var lines = ["\(name), \(ada.type.name), born \(born), \(result.report.totals.inserted) objects stored"]

    // Related objects both ways: a person's projects, each project's owner and tasks, each task's project.
    for project in ada.related("projects") {
        guard case .string(let title)? = project[attribute: "name"],
            case .decimal(let budget)? = project[attribute: "budget"]
        else { continue }
        let owner = project.relatedObject("owner") == ada ? "owned by Ada" : "not Ada's"
        let tasks = project.related("tasks").filter { $0.relatedObject("project") == project }
        lines.append("\(title): budget \(budget), \(owner), \(tasks.count) tasks")
    }
    return lines
}

/// The README's "Library use" example (README.md), run as written on
/// the product example `mappings/*.yml` over `samples/`.
@Suite("README library example")
struct LibraryExampleTests {
    /// The package root.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("the example runs the pipeline into SQLite and reads objects, values and relationships back")
    func example() async throws {
        let workspace = try RunWorkspace()
        for folder in ["mappings", "samples"] {
            try FileManager.default.copyItem(
                at: Self.root.appendingPathComponent(folder), to: workspace.url.appendingPathComponent(folder))
        }
        let lines = try await describeAda(
            mappings: [workspace.path("mappings/crm.yml"), workspace.path("mappings/work.yml")],
            store: workspace.path("crm.sqlite"))
        #expect(
            lines == [
                "Ada, CRMAdmin, born 1985-12-10, 67 objects stored",
                "Apollo Guidance: budget 1234.50, owned by Ada, 3 tasks",
                "Data Flow Study: budget 5400.00, owned by Ada, 3 tasks",
            ])
        #expect(
            try workspace.rows("SELECT type, first_name FROM people WHERE id = 1", store: "crm.sqlite") == [
                [.text("Admin"), .text("Ada")]
            ])
        #expect(try workspace.rows("SELECT count(*) FROM tasks", store: "crm.sqlite") == [[.integer(40)]])
        #expect(workspace.bytes("rmap.sqlite") == nil)
    }

    @Test("the README's Library use section shows exactly the code this file runs")
    func snippetMatchesTest() throws {
        let here = URL(fileURLWithPath: #filePath)
        let readme = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let markdown = try String(contentsOf: readme, encoding: .utf8)
        let section = try #require(markdown.range(of: "## Library use\n"))
        let fence = try #require(markdown.range(of: "```swift\n", range: section.upperBound..<markdown.endIndex))
        let end = try #require(markdown.range(of: "```", range: fence.upperBound..<markdown.endIndex))
        let snippet = String(markdown[fence.upperBound..<end.lowerBound])
        let source = try String(contentsOf: here, encoding: .utf8)
        // Imports are sorted in this file; the rest of the snippet is here verbatim.
        let imports = snippet.split(separator: "\n").filter { $0.hasPrefix("import ") }
        let body = try #require(snippet.range(of: "\n\n")).upperBound
        #expect(imports == ["import RMap", "import RMapSQLite"])
        #expect(imports.allSatisfy { source.contains("\n\($0)\n") })
        #expect(snippet[body...].hasPrefix("/// Imports the example"))
        #expect(source.contains(snippet[body...]))
    }
}
