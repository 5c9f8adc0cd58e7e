import RMap
import Testing

@Suite("Environment variables in mapping files")
struct InterpolationTests {
    static let http = """
        rmap: 1
        source:
          plugin: http
          site: ${SITE:-http://127.0.0.1:3000}
          headers: {Authorization: "Bearer ${API_TOKEN}"}
        entities:
          Note: {attributes: {id: int}}
        """

    @Test func unsetVariableNamesTheVariableFileAndLine() {
        #expect(
            LoaderHarness.issues(Self.http) == [
                "mappings/crm.yml:5:28: environment variable 'API_TOKEN' is not set (and has no default)"
            ])
    }

    @Test func setVariablesAndDefaultsExpand() throws {
        let model = try LoaderHarness.load(Self.http, environment: ["API_TOKEN": "tok-123"])
        let source = try #require(model.entity(named: "Note")?.source)
        #expect(source["site"]?.scalar?.text == "http://127.0.0.1:3000")
        #expect(source["headers"]?["Authorization"]?.scalar?.text == "Bearer tok-123")
    }

    @Test func emptyVariableTakesTheDefault() throws {
        let model = try LoaderHarness.load(Self.http, environment: ["API_TOKEN": "t", "SITE": ""])
        #expect(model.entity(named: "Note")?.source?["site"]?.scalar?.text == "http://127.0.0.1:3000")
    }

    @Test("a set but empty variable is an error naming it, not a path that lost a part; ${VAR:-} may be empty")
    func emptyVariableIsAnError() throws {
        let yaml = """
            rmap: 1
            source:
              plugin: file
              path: ${DATA}/users${SUFFIX:-}.json
            entities:
              User: {attributes: {id: int}}
            """
        #expect(
            LoaderHarness.issues(yaml, environment: ["DATA": "", "SUFFIX": ""]) == [
                "mappings/crm.yml:4:9: environment variable 'DATA' is empty (write ${DATA:-} where empty is meant)"
            ])
        let model = try LoaderHarness.load(yaml, environment: ["DATA": "data", "SUFFIX": ""])
        #expect(model.entity(named: "User")?.source?["path"]?.scalar?.text == "data/users.json")
    }

    @Test func setVariableWinsOverTheDefault() throws {
        let model = try LoaderHarness.load(Self.http, environment: ["API_TOKEN": "t", "SITE": "https://crm.example"])
        #expect(model.entity(named: "Note")?.source?["site"]?.scalar?.text == "https://crm.example")
    }

    @Test func onlySecretsAreCollectedAndRedacted() throws {
        let model = try LoaderHarness.load(
            Self.http, environment: ["API_TOKEN": "tok-123", "SITE": "https://crm.example"])
        #expect(model.secrets == ["tok-123"])
        #expect(
            model.redact("GET https://crm.example/notes.json with Bearer tok-123")
                == "GET https://crm.example/notes.json with Bearer ***")
    }

    @Test(
        "a value is secret by its variable's name or by where it is used",
        arguments: [
            ("url", "${DB}", false), ("url", "${DB_PASSWORD}", true), ("url", "${api_key}", true),
            ("url", "${GitHubToken}", true), ("url", "${CLIENT_SECRET}", true), ("url", "x${DB}", false),
            ("password", "${DB}", true), ("db_password", "${DB}", true),
        ])
    func secretByNameOrPlace(option: String, value: String, secret: Bool) throws {
        let yaml =
            "rmap: 1\nstore: {plugin: mystore, \(option): \"\(value)\"}\nentities:\n  Note: {attributes: {id: int}}\n"
        let variables = ["DB", "DB_PASSWORD", "api_key", "GitHubToken", "CLIENT_SECRET"]
        let catalog = PluginCatalog(stores: ["mystore": ["url", "password", "db_password"]])
        let model = try MappingLoader(
            environment: Dictionary(uniqueKeysWithValues: variables.map { ($0, "value-of-\($0)") }), catalog: catalog
        ).load(documents: [("m.yml", yaml)])
        #expect(model.secrets.isEmpty == !secret, "\(option): \(value): \(model.secrets)")
    }

    @Test func valuesUnderAuthAndHeadersAreSecretWhateverTheirNames() throws {
        let yaml = """
            rmap: 1
            source: {plugin: http, site: "${SITE}", auth: {basic: {user: "${USER}", password: "${PASS}"}}, headers: {X-Team: "${TEAM}"}}
            entities:
              Note: {attributes: {id: int}}
            """
        let model = try MappingLoader(
            environment: ["SITE": "http://h", "USER": "ann", "PASS": "pw", "TEAM": "t1"],
            catalog: PluginCatalog(sources: ["http": ["site", "auth", "headers"]])
        ).load(documents: [("m.yml", yaml)])
        #expect(model.secrets == ["ann", "pw", "t1"])
    }

    @Test func longerSecretsAreRedactedFirst() {
        let model = MappingModel(entities: [], secrets: ["abc", "abcdef"])
        #expect(model.redact("x abcdef y abc") == "x *** y ***")
    }

    @Test func variablesExpandInEntityKeysAndDefaults() throws {
        let yaml = """
            rmap: 1
            entities:
              Note:
                path: ${PREFIX}/notes
                attributes:
                  id: int
                  owner: {type: string, default: "${USER_NAME:-nobody}"}
            """
        let model = try LoaderHarness.load(yaml, environment: ["PREFIX": "api/v2"])
        #expect(model.entity(named: "Note")?.path == "api/v2/notes")
        #expect(model.entity(named: "Note")?.attribute(named: "owner")?.defaultValue == .string("nobody"))
    }

    @Test func unterminatedReference() {
        #expect(
            LoaderHarness.issues("rmap: 1\nentities:\n  Note: {path: \"${HOST\", attributes: {id: int}}\n") == [
                "mappings/crm.yml:3:16: unterminated '${' in '${HOST'"
            ])
    }

    @Test func everyUnsetVariableIsReported() {
        let yaml = "rmap: 1\nentities:\n  Note:\n    path: ${A}/${B}\n    attributes: {id: int}\n"
        #expect(
            LoaderHarness.issues(yaml) == [
                "mappings/crm.yml:4:11: environment variable 'A' is not set (and has no default)",
                "mappings/crm.yml:4:11: environment variable 'B' is not set (and has no default)",
            ])
    }
}
