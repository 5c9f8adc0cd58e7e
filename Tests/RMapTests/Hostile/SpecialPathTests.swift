import Foundation
import Testing

/// Paths that are not what they seem: a NUL character, which the system would cut the path at,
/// and files that never end (`/dev/zero`, `/dev/urandom`) or are streams (a pipe). Each is an
/// error naming the path, before anything is read or created.
@Suite("Hostile input: NUL in paths, devices and pipes")
struct SpecialPathTests {
    static func mapping(store: String = "{ plugin: memory }", path: String = "notes.json") -> String {
        """
        rmap: 1
        store: \(store)
        entities:
          Note:
            source: { plugin: file, path: "\(path)" }
            attributes: { id: int }

        """
    }

    @Test(
        "a NUL character in a store's or a source's path is a mapping error at its position; no file is created",
        arguments: [
            (mapping(store: #"{ plugin: sqlite, path: "nul.sqlite\0.evil" }"#), "m.yml:2:32"),
            (mapping(store: #"{ plugin: json, path: "nul.json\0.evil" }"#), "m.yml:2:30"),
            (mapping(path: #"notes.json\0.evil"#), "m.yml:5:35"),
        ])
    func nul(text: String, position: String) async throws {
        let workspace = try RunWorkspace(["m.yml": text, "notes.json": #"[{"id": 1}]"#])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(
            result.stderr
                == "\(position): a plugin option cannot hold a NUL character (\\0): paths, arguments and headers end at it\n"
        )
        #expect(result.status == 2)
        let names = try FileManager.default.contentsOfDirectory(atPath: workspace.url.path).sorted()
        #expect(names == ["m.yml", "notes.json"])
    }

    @Test(
        "a device as a payload file is refused at once, not read until memory runs out",
        .timeLimit(.minutes(30)), arguments: ["/dev/zero", "/dev/urandom"])
    func device(path: String) async throws {
        let workspace = try RunWorkspace(["m.yml": Self.mapping(path: path)])
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(
            result.stderr
                == "Error: \(path): is a character device, not a regular file (entity Note): the file source "
                + "reads regular files only; a stream goes through the stdin or exec source\n")
        #expect(result.status == 1)
    }

    @Test("a pipe as a payload file is refused too, not waited on for ever", .timeLimit(.minutes(30)))
    func pipe() async throws {
        let workspace = try RunWorkspace(["m.yml": Self.mapping(path: "fifo.json")])
        #expect(mkfifo(workspace.path("fifo.json"), 0o600) == 0)
        let result = try await workspace.rmap(["run", "m.yml", "--quiet"])
        #expect(
            result.stderr.hasPrefix("Error: fifo.json: is a pipe, not a regular file (entity Note)"), "\(result.stderr)"
        )
        #expect(result.status == 1)
    }

    @Test("a device as a mapping file or a JSON store is refused", .timeLimit(.minutes(30)))
    func otherDevices() async throws {
        let workspace = try RunWorkspace(["m.yml": Self.mapping(), "notes.json": #"[{"id": 1}]"#])
        let mapping = try await workspace.rmap(["validate", "/dev/zero"])
        #expect(
            mapping.stderr == "/dev/zero:1:1: cannot read the mapping file: is a character device, not a regular file\n"
        )
        #expect(mapping.status == 2)
        let store = try await workspace.rmap(["run", "m.yml", "--quiet", "--store", "json:/dev/zero"])
        #expect(
            store.stderr == "Error: /dev/zero: cannot read the JSON store: is a character device, not a regular file\n")
        #expect(store.status == 1)
    }
}
