import Foundation
import RMap
import Testing

@testable import RMapPostgres

/// How the `postgres` store is configured and connects: the registry's options,
/// `${VAR}` secrets, TLS settings passed to libpq, and errors without the password.
@Suite("PostgresStore connections")
struct PostgresStoreConnectionTests {
    typealias F = StoreFixtures

    /// A port nothing listens on: bound, then released.
    private func closedPort() throws -> Int {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The password URL of the test server, pointed at a closed port.
    private func unreachableURL() throws -> (url: String, port: Int) {
        let port = try closedPort()
        let url = try PostgresServer.passwordURL()
        let replaced = url.replacing(/127\.0\.0\.1:\d+/, with: "127.0.0.1:\(port)")
        return (replaced, port)
    }

    private func store(_ options: String, environment: [String: String]) throws -> any Store {
        let registry = PluginRegistry.standard()
        registry.registerPostgres()
        let yaml = "rmap: 1\nstore:\n  plugin: postgres\n\(options)\nentities:\n  Tag:\n    attributes: { id: int }\n"
        let model = try MappingLoader(environment: environment, catalog: registry.catalog)
            .load(documents: [("/mappings/tags.yml", yaml)])
        return try registry.makeStore(try #require(model.store))
    }

    @Test func anUnreachableServerIsNamedWithoutThePassword() throws {
        let (url, port) = try unreachableURL()
        #expect(url.contains(":s3cret@"))
        let error = try #require(throws: PostgresError.self) { try PostgresStore(url: url) }
        #expect(error.operation == .connect)
        #expect(error.description.contains(#"database "rmap_test" on 127.0.0.1:\#(port) as user "rmap""#))
        #expect(error.description.contains("Connection refused"))
        #expect(!String(reflecting: error).contains("s3cret"))
    }

    @Test func theURLComesFromTheEnvironmentAndSSLModeReachesLibpq() throws {
        let url = try PostgresServer.passwordURL()
        let environment = ["RMAP_TEST_PG_URL": url]
        let plain = try store("  url: ${RMAP_TEST_PG_URL}\n  sslmode: disable", environment: environment)
        let connection = try #require(plain as? PostgresStore).connection
        #expect(try connection.query("SELECT current_user, current_setting('TimeZone')").rows == [["rmap", "UTC"]])

        // The test server has no TLS: a required TLS connection must fail, naming the server.
        let error = try #require(throws: PostgresError.self) {
            try store("  url: ${RMAP_TEST_PG_URL}\n  sslmode: require", environment: environment)
        }
        #expect(error.description.contains("SSL"))
        #expect(error.description.contains("rmap_test"))
        #expect(!String(reflecting: error).contains("s3cret"))
    }

    @Test func aStoreWithoutURLIsAPluginError() throws {
        let error = try #require(throws: PluginError.self) { try store("  sslmode: disable", environment: [:]) }
        #expect(
            error.kind
                == .invalidOptions(problem: "the postgres store needs a 'url', e.g. postgres://user@host/database"))
        #expect(error.mark != nil)
    }

    @Test func tlsSettingsAreAddedToURIsAndKeyValueStrings() throws {
        let settings = ["sslmode": "verify-full", "sslrootcert": "/etc/rmap/ca cert&.pem", "sslkey": "/k'ey"]
        let uri = try PostgresConnectionString.adding(settings, to: "postgres://rmap@db.internal/crm?connect_timeout=5")
        #expect(
            uri == "postgres://rmap@db.internal/crm?connect_timeout=5&sslkey=/k%27ey&sslmode=verify-full"
                + "&sslrootcert=/etc/rmap/ca%20cert%26.pem")
        let keyValue = try PostgresConnectionString.adding(settings, to: "host=db.internal dbname=crm")
        for text in [uri, keyValue] {
            let parsed = ConnectionOptions(parsing: text)
            #expect(parsed.value(for: "sslmode") == "verify-full")
            #expect(parsed.value(for: "sslrootcert") == "/etc/rmap/ca cert&.pem")
            #expect(parsed.value(for: "sslkey") == "/k'ey")
        }
        #expect(
            try PostgresConnectionString.adding(["sslmode": "require"], to: "postgres://h/d?sslmode=require")
                == "postgres://h/d?sslmode=require")
        let clash = try #require(throws: PluginError.self) {
            try PostgresConnectionString.adding(["sslmode": "disable"], to: "postgres://h/d?sslmode=require")
        }
        #expect(
            clash.kind
                == .invalidOptions(
                    problem: "'sslmode' is given both in the PostgreSQL url and as an option; give it once"))
        #expect(clash.mark == nil)
    }
}
