import Foundation
import RMap
import RMapSQLite
import Testing

extension FaultServerSuites {
    /// A secret stays out of everything rmap keeps or prints, even when a server echoes it:
    /// the store and its run state, the private files, `rmap inspect` in every format, and
    /// the run's `--json` report (docs/cli.md, "Secrets" and "Private files").
    @Suite("Secrets at rest")
    struct SecretsAtRestTests {
        static let key = "s3cret"

        /// Two pages behind an API key in the query, whose first page's `Link` echoes the key.
        static func workspace(site: URL, marker: String) throws -> RunWorkspace {
            let workspace = try RunWorkspace([
                "m.yml": """
                rmap: 1
                source:
                  plugin: http
                  site: "\(site.absoluteString)"
                  paginate: link_header
                  auth: { api_key: { param: api_key, value: "${API_KEY}" } }
                entities:
                  Item: { path: "echolink/\(marker)", attributes: { id: int, name: string } }

                """
            ])
            try FileManager.default.createDirectory(
                at: workspace.url.appendingPathComponent("tmp"), withIntermediateDirectories: true)
            return workspace
        }

        /// `rmap run m.yml --json` with the key in the environment and the workspace's `tmp` as `TMPDIR`.
        static func run(_ workspace: RunWorkspace) async throws -> CLIResult {
            try await CLIRunner.run(
                ["run", "m.yml", "--json"], in: workspace.url,
                environment: ["API_KEY": key, "TMPDIR": workspace.path("tmp")])
        }

        /// Every byte of the store's files (the database and any journal beside it) as text.
        static func storeBytes(_ workspace: RunWorkspace) throws -> String {
            let names = try FileManager.default.contentsOfDirectory(atPath: workspace.url.path)
            return names.filter { $0.hasPrefix("rmap.sqlite") }.compactMap { workspace.bytes($0) }
                .map { String(decoding: $0, as: UTF8.self) }.joined()
        }

        @Test("a key the server echoes in its Link is kept nowhere, and comes back from the request when followed")
        func echoedKey() async throws {
            let site = try TestServers.fault()
            let marker = marker()
            let workspace = try Self.workspace(site: site, marker: marker)
            let first = try await Self.run(workspace)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(try RunJSON(first.stdout).counts("Item")["inserted"] == 2)
            #expect(!(first.stdout + first.stderr).contains(Self.key))
            #expect(!(try Self.storeBytes(workspace)).contains(Self.key))
            let links = try workspace.rows(#"SELECT value FROM _rmap_state WHERE value LIKE '%"link"%'"#)
            #expect(links.count == 1)
            #expect("\(links)".contains("api_key=***"), "\(links)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path("tmp")) == [])

            // Unchanged: page 1 answers 304 without a Link; the remembered one leads to page 2, key restored.
            let second = try await Self.run(workspace)
            #expect(second.status == 0, "\(second.stderr)")
            let counts = try RunJSON(second.stdout).counts("Item")
            #expect(counts["fetched"] == 0 && counts["unchanged"] == 2, "\(counts)")
            let pageTwo = try await Plain.requests(site, containing: marker).filter {
                $0["path"]?.string?.contains("page=2") == true
            }
            #expect(pageTwo.count == 2)
            #expect(pageTwo.allSatisfy { $0["path"]?.string?.contains("api_key=\(Self.key)") == true })
            #expect(pageTwo.last?["headers"]?.object?["if-none-match"]?.string == "\"echolink-2\"")
            #expect(!(second.stdout + second.stderr).contains(Self.key))
            #expect(!(try Self.storeBytes(workspace)).contains(Self.key))
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path("tmp")) == [])
        }

        @Test("a run that fails reading a page leaves no private file behind")
        func failedRun() async throws {
            let site = try TestServers.fault()
            let workspace = try Self.workspace(site: site, marker: marker())
            try workspace.write(
                "m.yml",
                "rmap: 1\nsource: { plugin: http, site: \"\(site.absoluteString)\", retries: 0 }\n"
                    + "entities:\n  Item: { path: bad, attributes: { id: int, name: string } }\n")
            for _ in 0..<5 {
                let failed = try await Self.run(workspace)
                #expect(failed.status == 1, "\(failed.stderr)")
                #expect(failed.stderr.contains("invalid JSON"), "\(failed.stderr)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path("tmp")) == [])
            }
        }

        @Test(
            "a run stopped by SIGINT or SIGTERM while a page downloads removes the page's file (0600, in a 0700 folder)",
            arguments: [SIGINT, SIGTERM])
        func interruptedPage(signal: Int32) async throws {
            let site = try TestServers.fault()
            let marker = marker()
            let workspace = try Self.workspace(site: site, marker: marker)
            try workspace.write(
                "m.yml",
                "rmap: 1\nsource: { plugin: http, site: \"\(site.absoluteString)\", params: { seconds: \"60\" } }\n"
                    + "entities:\n  Item: { path: \"slow/\(marker)\", attributes: { id: int, name: string } }\n")
            let (tmp, log) = (workspace.path("tmp"), workspace.path("run.log"))
            let child = try ChildProcess(
                try CLIRunner.binary().path,
                ["run", workspace.path("m.yml"), "--store", "sqlite:\(workspace.path("s.sqlite"))"], log: log,
                environment: ["TMPDIR": tmp])
            try await Plain.awaitRequest(site, containing: marker)
            // The page's file is made before its request is sent.
            let folders = try FileManager.default.contentsOfDirectory(atPath: tmp)
            #expect(folders.count == 1 && folders.first?.hasPrefix("rmap-private-") == true, "\(folders)")
            let folder = "\(tmp)/\(folders.first ?? "")"
            let pages = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("page-") }
            #expect(pages.count == 1, "\(pages)")
            #expect(Self.mode(folder) == 0o700 && Self.mode("\(folder)/\(pages.first ?? "")") == 0o600)
            child.send(signal)
            let ended = await DedicatedThread.run { child.wait() }.get()
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(ended.signal == signal, "\(output)")
            #expect(output.hasSuffix("\ninterrupted: nothing was written\n"), "\(output)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [])
            #expect(workspace.bytes("s.sqlite") == nil)
        }

        /// The permission bits of the file or folder at `path`.
        static func mode(_ path: String) -> mode_t {
            var status = stat()
            return stat(path, &status) == 0 ? status.st_mode & 0o777 : 0
        }

        @Test("inspect hides a URL's password written in the file, in text and JSON alike")
        func inspectPasswords() async throws {
            let workspace = try RunWorkspace([
                "m.yml": """
                rmap: 1
                source: { plugin: http, site: "http://bob:PASSWORD@api.example.com" }
                store: { plugin: postgres, url: "postgres://user:PASSWORD@db.example.com/crm" }
                entities:
                  Note: { attributes: { id: int } }

                """
            ])
            for format in ["text", "json", "mermaid", "dot"] {
                let result = try await workspace.rmap(["inspect", "m.yml", "--format", format])
                #expect(result.status == 0, "\(result.stderr)")
                #expect(!result.stdout.contains("PASSWORD"), "\(format): \(result.stdout)")
            }
            let text = try await workspace.rmap(["inspect", "m.yml"])
            #expect(text.stdout.contains("site: http://bob:***@api.example.com"), "\(text.stdout)")
            #expect(text.stdout.contains("url: postgres://user:***@db.example.com/crm"), "\(text.stdout)")
            let json = try await workspace.rmap(["inspect", "m.yml", "--format", "json"])
            #expect(json.stdout.contains(#""url":"postgres://user:***@db.example.com/crm""#), "\(json.stdout)")
            #expect(json.stdout.contains(#""site":"http://bob:***@api.example.com""#), "\(json.stdout)")
        }
    }
}
