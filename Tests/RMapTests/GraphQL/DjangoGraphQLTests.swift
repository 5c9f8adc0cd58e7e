import Foundation
import RMap
import RMapSQLite
import Testing

extension DjangoServerSuites {
    /// The `graphql` source against the Django app's graphene-django endpoint (Relay connections).
    @Suite("GraphQL against Django")
    struct DjangoGraphQLTests {
        static let example = TestServers.repositoryRoot.appendingPathComponent("examples/django/graphql.yml").path

        @Test("examples/django/graphql.yml loads the whole CRM with every link connected; a re-run changes nothing")
        func example() async throws {
            let site = try TestServers.django().url
            try await PushServer.reset(site)
            let directory = try TemporaryDirectory()
            let store = directory.url.appendingPathComponent("crm.sqlite").path
            let arguments = ["run", Self.example, "--store", store, "--quiet", "--json"]
            let environment = ["DJANGO_URL": site.absoluteString]

            let first = try await CLIRunner.run(arguments, in: directory.url, environment: environment)
            #expect(first.status == 0, "\(first.stderr)")
            let totals = try DjangoExampleTests.totals(first)
            #expect(totals["inserted"] == 235 && totals["dangling"] == 0 && totals["rejected"] == 0, "\(totals)")
            #expect(totals["unmapped_keys"] == 0, "\(totals)")
            // GraphQL's keys are the columns; owners and projects come from the nested connections.
            try DjangoExampleTests.expectWholeCRM(
                in: store,
                columns: .init(
                    id: "databaseId", owner: "owner_databaseId", project: "project_databaseId", dueAt: "dueAt"))
            let database = try SQLiteConnection(path: store)
            #expect(
                try database.query("SELECT owner_databaseId FROM projects WHERE databaseId = 13", []) == [[.integer(2)]]
            )
            #expect(try database.query("SELECT firstName FROM people WHERE databaseId = 1", []) == [[.text("Ada")]])
            // 25 a page: people in one, projects in three, tasks in six, each after the last one's endCursor.
            let log = try await PushServer.log(site)
            #expect(log.count == 10 && log.allSatisfy { $0.method == "POST" && $0.path == "/graphql" }, "\(log)")
            #expect(log.filter { $0.body.contains(#""after":null"#) }.count == 3)
            #expect(log.allSatisfy { $0.body.contains(#""first":25"#) })

            let second = try await CLIRunner.run(arguments, in: directory.url, environment: environment)
            #expect(second.status == 0, "\(second.stderr)")
            let again = try DjangoExampleTests.totals(second)
            #expect(again["unchanged"] == 235 && again["inserted"] == 0 && again["updated"] == 0, "\(again)")
        }

        @Test(
            "a GraphQL error, or a next page the query cannot ask for, fails the run naming the entity",
            arguments: [
                (
                    "query { allPeople(first: 10) { edges { node { databaseId firstNme } } } }",
                    "fetching Person: the GraphQL answer has errors: Cannot query field 'firstNme' on type 'PersonNode'. Did you mean 'firstName' or 'lastName'?"
                ),
                (
                    "query { allPeople(first: 10) { pageInfo { hasNextPage endCursor } edges { node { databaseId } } } }",
                    "fetching Person: the answer has a next page, but the query does not use $after to ask for it"
                ),
            ])
        func failures(query: String, message: String) async throws {
            let site = try TestServers.django().url
            let directory = try TemporaryDirectory()
            try """
            rmap: 1
            source: { plugin: graphql, endpoint: "${DJANGO_URL}/graphql" }
            entities:
              Person:
                query: "\(query)"
                records: data.allPeople.edges.node
                attributes: { id: { type: int, key: databaseId } }
            """.write(to: directory.url.appendingPathComponent("people.yml"), atomically: true, encoding: .utf8)
            let result = try await CLIRunner.run(
                ["run", "people.yml", "--store", "crm.sqlite"], in: directory.url,
                environment: ["DJANGO_URL": site.absoluteString])
            #expect(result.status == 1)
            #expect(
                result.stderr.contains("Error: POST \(site.absoluteString)/graphql: \(message)"), "\(result.stderr)")
        }
    }
}
