import Foundation
import Testing

/// Only secrets are redacted: values of variables named like secrets, and values used where secrets go.
@Suite("rmap: only secrets are redacted")
struct SecretRedactionTests {
    static func notes(site: String) -> String {
        "rmap: 1\nsource: {plugin: http, site: \"\(site)\", retries: 0}\nentities:\n  Note: {attributes: {id: int}}\n"
    }

    @Test(
        "a site read from the environment shows in errors unless its variable names a secret",
        arguments: [("${SITE}", "http://127.0.0.1:9/notes.json"), ("${SITE_TOKEN}", "***/notes.json")])
    func site(reference: String, shown: String) async throws {
        let workspace = try RunWorkspace(["notes.yml": Self.notes(site: reference)])
        let result = try await CLIRunner.run(
            ["run", "notes.yml", "--store", "memory:", "--quiet"], in: workspace.url,
            environment: ["SITE": "http://127.0.0.1:9", "SITE_TOKEN": "http://127.0.0.1:9"])
        #expect(result.stderr.hasPrefix("Error: GET \(shown): fetching Note: cannot connect"), "\(result.stderr)")
        #expect(result.stdout == "")
        #expect(result.status == 1)
    }

    @Test("a file path read from the environment shows in progress unless its variable names a secret")
    func progress() async throws {
        let workspace = try ExampleWorkspace.make()
        try workspace.write(
            "people.yml",
            """
            rmap: 1
            naming: { entity_prefix: CRM }
            entities:
              CRMPerson:
                source: { plugin: file, path: "${DATA}/people.json" }
                attributes: { id: int }
              CRMProject:
                source: { plugin: file, path: "${DATA_KEY}/projects.json" }
                attributes: { id: int }

            """)
        try FileManager.default.copyItem(
            at: workspace.url.appendingPathComponent("samples"), to: workspace.url.appendingPathComponent("hidden"))
        let result = try await CLIRunner.run(
            ["run", "people.yml", "--store", "memory:", "--jobs", "1"], in: workspace.url,
            environment: ["DATA": "samples", "DATA_KEY": "hidden"])
        #expect(
            result.fetchedLines == [
                "fetched CRMPerson: 12 records from samples/people.json ",
                "fetched CRMProject: 15 records from ***/projects.json ",
            ])
        #expect(result.stdout.hasPrefix("entity "), "\(result.stdout)")
        #expect(result.status == 0)
    }

    @Test("inspect hides what is used under headers or auth, whatever the variable's name, and shows the rest")
    func inspect() async throws {
        let workspace = try RunWorkspace([
            "notes.yml": """
            rmap: 1
            source: {plugin: http, site: "${SITE}", headers: {X-Team: "${TEAM}"}, auth: {bearer: "${BEARER}"}}
            entities:
              Note: {attributes: {id: int}}

            """
        ])
        let result = try await CLIRunner.run(
            ["inspect", "notes.yml"], in: workspace.url,
            environment: ["SITE": "http://crm.example", "TEAM": "team-7", "BEARER": "b-123"])
        #expect(result.stdout.contains("http://crm.example"), "\(result.stdout)")
        #expect(!result.stdout.contains("team-7") && !result.stdout.contains("b-123"), "\(result.stdout)")
        #expect(result.stdout.contains("X-Team: ***"), "\(result.stdout)")
        #expect(result.status == 0)
    }
}
