import Foundation
import RMap
import Testing

@testable import RMapHTTP

/// A header field is one line: a value holding CR or LF (say, a token read from the
/// environment with a line break in it) would end the line and send what follows as a header
/// of its own. Such a field is refused, as Python's requests refuses it, naming the header,
/// never its value.
@Suite("HTTP headers: no line breaks")
struct HeaderLineBreakTests {
    static let mapping = """
        rmap: 1
        source: { plugin: http, site: "http://127.0.0.1:9", auth: { bearer: "${BEARER}" }, headers: { X-Team: "${TEAM}" } }
        entities:
          Note: { attributes: { id: int } }

        """

    @Test(
        "a bearer token or header value from the environment with CR or LF fails at its position, not shown",
        arguments: [
            (["BEARER": "tok-1\r\nX-Evil: yes", "TEAM": "team-7"], "2:69", "'auth.bearer'"),
            (["BEARER": "tok-1", "TEAM": "team-7\nX-Evil: yes"], "2:103", "header 'X-Team'"),
            (["BEARER": "tok-1\rX-Evil: yes", "TEAM": "team-7"], "2:69", "'auth.bearer'"),
        ])
    func fromEnvironment(environment: [String: String], position: String, what: String) async throws {
        let workspace = try RunWorkspace(["m.yml": Self.mapping])
        let result = try await CLIRunner.run(
            ["run", "m.yml", "--store", "memory:", "--quiet"], in: workspace.url, environment: environment)
        #expect(
            result.stderr
                == "Error: m.yml:\(position): http source: \(what) holds a line break (CR or LF) or NUL, which would "
                + "start another header (not shown)\n")
        #expect(!result.stderr.contains("Evil") && !result.stderr.contains("tok-1"))
        #expect(result.status == 1)
    }

    @Test("the client refuses a header that breaks its line and sends nothing, whoever set it")
    func client() async throws {
        let recorder = RecordingTransport()
        let client = HTTPClient(headers: HTTPHeaders([("X-Trace", "a\nInjected: 1")]), transport: recorder)
        let error = try await #require(throws: HTTPError.self) {
            try await client.send(HTTPRequest(.get, url: URL(string: "http://127.0.0.1:9/notes.json")!))
        }
        #expect(error.reason == .headerBreaksLine("X-Trace"))
        #expect(
            error.description
                == "GET http://127.0.0.1:9/notes.json: not sent: header 'X-Trace' holds a line break (CR or LF) or NUL, "
                + "which would start another header")
        #expect(recorder.sent.withLock { $0 } == 0)
    }

    /// A transport that counts what it is asked to send and answers nothing.
    final class RecordingTransport: HTTPTransport {
        let sent = Locked(0)

        func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPError.Reason) -> HTTPResponse {
            sent.withLock { $0 += 1 }
            throw .cannotConnect("no network in this test")
        }
    }
}
