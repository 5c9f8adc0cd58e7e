import Foundation
import RMap
import Testing

@testable import RMapHTTP

/// The `http` source's options are checked when the source is made, each
/// error naming the offending node's `file:line:col`.
@Suite("HTTP source options")
struct HTTPSourceOptionsTests {
    /// A mapping whose source block has `option` on line 5.
    static func model(_ option: String) throws -> MappingModel {
        let registry = PluginRegistry()
        registry.registerHTTP()
        let yaml = """
            rmap: 1
            source:
              plugin: http
              site: http://127.0.0.1:1
              \(option)
            entities:
              Item:
                attributes: { id: int }
            """
        return try MappingLoader(environment: [:], catalog: registry.catalog).load(documents: [("test.yml", yaml)])
    }

    static func make(_ option: String) throws -> HTTPSource {
        let model = try model(option)
        return try HTTPSource(config: try #require(model.entities.first?.source), model: model)
    }

    @Test(
        "malformed options fail at their mark",
        arguments: [
            ("paginate: sideways", "sideways", "unknown pagination 'sideways'"),
            ("paginate: cursor", "cursor", "'paginate: cursor' needs its keys"),
            ("paginate: { cursor: { param: c } }", "{ param", "'paginate.cursor' needs 'next'"),
            ("paginate: { cursor: { next: a, prm: c } }", "prm", "unknown key 'prm' in 'paginate.cursor'"),
            ("page_size: 0", "0", "'page_size' must be a whole number greater than 0, found '0'"),
            ("page_size: many", "many", "'page_size' must be a whole number greater than 0"),
            ("timeout: -1", "-1", "'timeout' must be a number of seconds greater than 0"),
            ("retries: -2", "-2", "'retries' must be a whole number (0 or more)"),
            ("concurrency: [4]", "[4]", "'concurrency' must be a whole number greater than 0, found a list"),
            ("headers: [Accept]", "[Accept]", "'headers' must be a mapping, found a list"),
            ("headers: { X-A: [1] }", "[1]", "header 'X-A' must be a string, found a list"),
            ("params: { a: { b: 1 } }", "{ b", "parameter 'a' must be a string, found a mapping"),
            ("auth: { basic: { user: a } }", "{ user", "'auth.basic' needs 'password'"),
            ("auth: { basic: { user: a, password: b, realm: c } }", "realm", "unknown key 'realm' in 'auth.basic'"),
            (
                "auth: { bearer: a, basic: b }", "{ bearer",
                "'auth' takes exactly one of basic, bearer, api_key or oauth2"
            ),
            ("auth: { oauth: x }", "oauth", "unknown auth scheme 'oauth'"),
            ("allow_hosts: cdn.test", "cdn.test", "'allow_hosts' must be a list, found a scalar"),
            ("allow_hosts: [[a]]", "[a]", "each entry of 'allow_hosts' must be a string, found a list"),
            ("max_body_bytes: 0", "0", "'max_body_bytes' must be a whole number greater than 0, found '0'"),
            ("max_pages: lots", "lots", "'max_pages' must be a whole number greater than 0, found 'lots'"),
            (
                "format: json_api", "json_api",
                "unknown format 'json_api' (expected rails or jsonapi) (did you mean 'jsonapi'?)"
            ),
            ("auth: { api_key: { value: v } }", "{ value", "'auth.api_key' needs either 'header' or 'param'"),
            (
                "auth: { api_key: { header: H, param: p, value: v } }", "{ header",
                "'auth.api_key' needs either 'header' or 'param' (not both)"
            ),
        ])
    func malformed(option: String, at node: String, message: String) throws {
        let error = try #require(throws: PluginError.self) { try Self.make(option) }
        let column = try #require(option.range(of: node)).lowerBound.utf16Offset(in: option) + 3
        #expect(error.mark.map { [$0.line, $0.column] } == [5, column])
        #expect(error.description.hasPrefix("test.yml:5:\(column): http source: \(message)"), "\(error)")
    }

    @Test("a site that is not an http URL fails at its mark")
    func badSite() throws {
        let registry = PluginRegistry()
        registry.registerHTTP()
        let yaml =
            "rmap: 1\nsource:\n  plugin: http\n  site: ftp://files\nentities:\n  Item:\n    attributes: { id: int }\n"
        let model = try MappingLoader(environment: [:], catalog: registry.catalog).load(documents: [("test.yml", yaml)])
        let error = try #require(throws: PluginError.self) {
            try HTTPSource(config: try #require(model.entities.first?.source), model: model)
        }
        #expect(
            error.kind
                == .invalidOptions(problem: "http source: 'site' must be an http or https URL, found 'ftp://files'"))
        #expect(
            error.description == "test.yml:4:9: http source: 'site' must be an http or https URL, found 'ftp://files'")
    }

    @Test("a placeholder parameter must name a to-one foreign key")
    func placeholderWithoutParent() throws {
        let error = try #require(throws: PluginError.self) { try Self.make(#"params: { person_id: "{id}" }"#) }
        #expect(
            error.description.hasPrefix("test.yml:7:3: http source: parameter 'person_id' of 'Item' uses a placeholder")
        )
    }

    @Test("good options make a source; the registry lists every option key")
    func registered() throws {
        _ = try Self.make("paginate: { cursor: { next: meta.next } }\n  headers: { X-A: b }")
        let registry = PluginRegistry()
        registry.registerHTTP()
        #expect(
            registry.catalog.sources["http"]
                == [
                    "site", "suffix", "headers", "auth", "page_size", "paginate", "timeout", "retries", "concurrency",
                    "params", "allow_hosts", "max_body_bytes", "max_pages", "window", "size_param", "method", "body",
                    "on_status", "error_when", "rate_limit", "max_wait", "format",
                ])
    }

    @Test("an unknown option is a mapping error with a hint")
    func unknownOption() throws {
        let error = try #require(throws: MappingError.self) { try Self.model("page_sise: 10") }
        #expect("\(error)".contains("test.yml:5:3"))
        #expect("\(error)".contains("page_size"))
    }
}
