import Foundation
import RMap
import RMapSQLite
import Testing

@testable import RMapHTTP

/// jsonapi.org's documentation examples (Tests/Fixtures/jsonapi) read as the http source reads a
/// page (``JSONAPIPage``), then mapped, connected and stored by a real run into SQLite.
@Suite("JSON:API documents mapped")
struct JSONAPIFixtureTests {
    /// `Tests/Fixtures/jsonapi`.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/jsonapi")

    /// jsonapi.org's blog: articles from an http source in JSON:API form; their people (editors
    /// among them), comments and tags arrive included; photos are only pushed.
    static let articles = """
        rmap: 1
        source: {plugin: http, site: "http://example.com", format: jsonapi}
        store: {plugin: sqlite, path: rmap.sqlite}
        naming: {entity_prefix: Blog, attributes: NAMING}
        entities:
          BlogArticle:
            attributes: {id: int, title: string, text: string, rank: {key: meta.rank.weekly, type: int}}
            relationships:
              author: {to_one: BlogPerson}
              reviewer: {to_one: BlogPerson}
              comments: {to_many: BlogComment}
              tags: {to_many: BlogTag}
          BlogPerson:
            source: false
            attributes: {id: int, firstName: string, lastName: string, twitter: string}
          BlogEditor:
            extends: BlogPerson
            attributes: {desk: string}
          BlogComment:
            source: false
            attributes: {id: int, body: string}
            relationships: {author: {to_one: BlogPerson}}
          BlogTag:
            source: false
            attributes: {id: int, name: string}
          BlogPhoto:
            source: false
            attributes: {id: string, title: string, src: string}
            relationships: {photographer: {to_one: BlogPerson}}
        """

    /// The plugins the blog's mapping names: the standard ones, SQLite and http.
    static let catalog: PluginCatalog = {
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        registry.registerHTTP()
        return registry.catalog
    }()

    /// A source named `http` that serves each run the next document of `pages` as one page.
    final class Pages: Source, Sendable {
        let names: Locked<[String]>

        init(_ names: [String]) {
            self.names = Locked(names)
        }

        func fetch(_ entities: [EntityMapping], context: FetchContext) async throws {
            guard let name = names.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
            let data = try Data(contentsOf: JSONAPIFixtureTests.fixtures.appendingPathComponent(name))
            let document = try JSONReader.parse(data, origin: name)
            for entity in entities {
                for payload in try JSONAPIPage(model: context.model).payloads(
                    in: document, for: entity, origin: name, fill: [:])
                {
                    try await context.deliver(payload)
                }
            }
        }
    }

    /// Runs `yaml` once per document of `pages`, in order, into one SQLite store; returns the reports.
    static func run(_ yaml: String, pages: [String], naming: String = "snake_case") async throws -> (
        RunWorkspace, [RunReport]
    ) {
        let workspace = try RunWorkspace()
        let registry = PluginRegistry.standard()
        registry.registerSQLite()
        let source = Pages(pages)
        registry.register(source: "http", options: HTTPSource.options) { _, _ in source }
        try workspace.write("m.yml", yaml.replacingOccurrences(of: "NAMING", with: naming))
        let model = try MappingLoader(environment: [:], catalog: registry.catalog).load([workspace.path("m.yml")])
        var reports: [RunReport] = []
        for _ in pages { reports.append(try await Pipeline(model: model, registry: registry).run().report) }
        return (workspace, reports)
    }

    @Test(
        "a compound document, dasherized (1.0) or camelCased (1.1), loads with any naming, every linkage connected",
        arguments: ["compound-document-1.0.json", "compound-document-1.1.json"], ["snake_case", "kebab_case"]
    )
    func compoundDocument(_ name: String, naming: String) async throws {
        let (workspace, reports) = try await Self.run(Self.articles, pages: [name], naming: naming)
        let report = try #require(reports.first)
        #expect(report.entities.map(\.inserted) == [1, 1, 0, 2, 0, 0] && report.totals.rejected == 0)
        #expect(
            try workspace.rows("SELECT id, title, author_id FROM articles") == [
                [.integer(1), .text("JSON:API paints my bikeshed!"), .integer(9)]
            ])
        #expect(
            try workspace.rows("SELECT id, first_name, last_name, twitter FROM people") == [
                [.integer(9), .text("Dan"), .text("Gebhardt"), .text("dgeb")]
            ])
        #expect(
            try workspace.rows("SELECT article_id, comment_id FROM articles_comments ORDER BY comment_id") == [
                [.integer(1), .integer(5)], [.integer(1), .integer(12)],
            ])
        #expect(
            try workspace.rows("SELECT id, body, author_id FROM comments ORDER BY id") == [
                [.integer(5), .text("First!"), .integer(2)], [.integer(12), .text("I like XML better"), .integer(9)],
            ])
        // Comment 5's author, person 2, is not in the document: a dangling reference, as with any foreign key.
        #expect(report.totals.dangling == 1)
    }

    @Test(
        "a relationship without data (links only) keeps the stored link; a new resource's null and [] link nothing, its sub-type linkage connects"
    )
    func absentNullAndEmpty() async throws {
        let (workspace, reports) = try await Self.run(
            Self.articles, pages: ["compound-document-1.1.json", "article-author-links-only.json"])
        #expect(reports.map(\.totals.rejected) == [0, 0])
        #expect(
            try workspace.rows("SELECT id, title, author_id FROM articles") == [
                [.integer(1), .text("JSON:API paints my bikeshed!"), .integer(9)]
            ])
        #expect(try workspace.rows("SELECT count(*) FROM articles_comments") == [[.integer(2)]])

        let (cleared, _) = try await Self.run(
            Self.articles.replacingOccurrences(
                of: "  BlogArticle:\n", with: "  BlogArticle:\n    unknown_type: skip\n"),
            pages: ["compound-document-1.1.json", "editors-and-badges.json"])
        #expect(
            try cleared.rows(
                "SELECT id, author_id, reviewer_id, reviewer_type, meta_rank_weekly FROM articles ORDER BY id") == [
                    [.integer(1), .integer(9), .null, .null, .null],
                    [.integer(2), .null, .integer(7), .text("editors"), .integer(3)],
                ])
        #expect(try cleared.rows("SELECT article_id FROM articles_comments") == [[.integer(1)], [.integer(1)]])
        // The editor is a person (single-table inheritance): linkage of type editors connects a BlogPerson relationship.
        let people = try cleared.rows("SELECT id, first_name, desk, type FROM people ORDER BY id")
        #expect(
            people == [
                [.integer(7), .text("Yehuda"), .text("B12"), .text("BlogEditor")],
                [.integer(9), .text("Dan"), .null, .text("BlogPerson")],
            ], "\(people)")
    }

    @Test("data null clears a stored to-one, [] empties a stored list, linkage reaches a stored resource not included")
    func storedLinksChanged() async throws {
        let (workspace, reports) = try await Self.run(
            Self.articles, pages: ["compound-document-1.1.json", "article-unlinked.json"])
        #expect(reports.map(\.totals.rejected) == [0, 0])
        #expect(reports.last?.totals.dangling == 0)
        #expect(
            try workspace.rows("SELECT id, author_id, reviewer_id, reviewer_type FROM articles") == [
                [.integer(1), .null, .integer(9), .text("people")]
            ])
        #expect(try workspace.rows("SELECT count(*) FROM articles_comments") == [[.integer(0)]])
        // The unlinked objects stay stored: only the links changed.
        #expect(try workspace.rows("SELECT count(*) FROM comments") == [[.integer(2)]])
        #expect(try workspace.rows("SELECT id, first_name FROM people") == [[.integer(9), .text("Dan")]])
    }

    @Test(
        "documents that cannot become records fail with where and why",
        arguments: [
            (
                #"[{"type": "articles", "id": "1"}]"#,
                "expected a JSON:API document (an object with 'data'), found an array"
            ),
            (#"{"data": [{"id": "1"}]}"#, "the resource at data[0] has no 'type'"),
            (#"{"data": {"type": "articles"}}"#, "the 'articles' resource at data has no 'id'"),
            (
                #"{"data": {"type": "articles", "id": "1", "relationships": {"reviewer": {"data": {"type": "comments", "id": "5"}}}}}"#,
                "'BlogArticle.reviewer' links to a resource of type 'comments', which is not 'BlogPerson' or one of its sub-entities"
            ),
        ])
    func malformed(_ json: String, message: String) throws {
        let model = try MappingLoader(environment: [:], catalog: Self.catalog)
            .load(documents: [("m.yml", Self.articles.replacingOccurrences(of: "NAMING", with: "snake_case"))])
        let article = try #require(model.entity(named: "BlogArticle"))
        let document = try JSONReader.parse(json, origin: "page")
        #expect {
            try JSONAPIPage(model: model).payloads(in: document, for: article, origin: "page", fill: [:])
        } throws: { error in
            (error as? JSONAPIError)?.description == message
        }
    }

    @Test("an included type no entity maps fails the run naming it; unknown_type: skip leaves it out")
    func unknownType() async throws {
        await #expect {
            try await Self.run(Self.articles, pages: ["editors-and-badges.json"])
        } throws: { error in
            "\(error)".contains(
                "the resource at included[1] has type 'badges' (id 1), which no entity's collection names (types mapped: articles, comments, editors, people, photos, tags); map it, or set 'unknown_type: skip' on 'BlogArticle'"
            )
        }
    }
}
