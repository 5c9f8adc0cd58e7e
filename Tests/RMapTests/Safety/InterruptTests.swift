import Foundation
import RMap
import Testing

/// `rmap` stopped by `SIGINT` (Ctrl-C) or `SIGTERM`, or killed, and programs that hang
/// (docs/cli.md, "Interrupts" and "Private files"; docs/mapping.md, "Programs"): the programs
/// it runs and what they started end with it, it says what the store holds and dies by the
/// signal, and no private file outlives it (a `SIGKILL`'s go at the next start).
@Suite("rmap interrupted, killed, or running a program that hangs")
struct InterruptTests {
    /// A workspace with `m.yml` (`mapping`), a `tmp` folder for `TMPDIR`, and files.
    static func workspace(_ mapping: String, files: [String: String] = [:]) throws -> RunWorkspace {
        let workspace = try RunWorkspace(files.merging(["m.yml": mapping]) { _, own in own })
        try FileManager.default.createDirectory(
            at: workspace.url.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        return workspace
    }

    /// Starts `rmap arguments...` in the workspace (absolute paths), `TMPDIR` its `tmp`, waits until
    /// `ready` holds `lines` lines, does `act` to the child, and waits for the child to end.
    static func interrupt(
        _ workspace: RunWorkspace, _ arguments: [String], ready: String = "pids", lines: Int = 2,
        _ act: @escaping @Sendable (ChildProcess) -> Void
    ) async throws -> (ended: ChildProcess.Termination, log: String) {
        let binary = try CLIRunner.binary().path
        let (log, readyPath, tmp) = (workspace.path("rmap.log"), workspace.path(ready), workspace.path("tmp"))
        let ended = try await ProcessSlots.shared.holding {
            try await DedicatedThread.run {
                let child = try ChildProcess(binary, arguments, log: log, environment: ["TMPDIR": tmp])
                let deadline = ContinuousClock.now + .seconds(300)
                while Self.lineCount(readyPath) < lines, ContinuousClock.now < deadline { usleep(20_000) }
                act(child)
                return child.wait()
            }.get()
        }
        return (ended, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    static func lineCount(_ path: String) -> Int {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    /// The process ids written to a workspace file, one a line.
    static func pids(_ workspace: RunWorkspace, _ name: String = "pids") -> [pid_t] {
        ((try? String(contentsOfFile: workspace.path(name), encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { pid_t($0) }
    }

    /// True once `pid` is gone or a zombie (ended, waiting for a parent that is not rmap to reap it), within 10 s.
    static func ended(_ pid: pid_t) -> Bool {
        for _ in 0..<500 {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            let state = stat.split(separator: ")").last?.split(separator: " ").first.map(String.init)
            if stat.isEmpty || state == "Z" { return true }
            usleep(20_000)
        }
        return false
    }

    /// A program that writes its process id and that of a child it starts in the background
    /// (which, as a background job of `sh`, ignores SIGINT), then waits for ever.
    static let hanging = #"[sh, -c, 'echo $$ > pids; sleep 300 & echo $! >> pids; wait']"#

    @Test(
        "SIGINT or SIGTERM during an exec source: its program and what that started end, nothing is written",
        arguments: [SIGINT, SIGTERM])
    func execSource(signal: Int32) async throws {
        let workspace = try Self.workspace(
            """
            rmap: 1
            entities:
              Note:
                source: { plugin: exec, command: \(Self.hanging) }
                attributes: { id: int }

            """)
        let (ended, log) = try await Self.interrupt(
            workspace, ["run", workspace.path("m.yml"), "--store", "sqlite:\(workspace.path("s.sqlite"))"]
        ) { $0.send(signal) }
        #expect(ended.signal == signal, "\(log)")
        #expect(log.hasSuffix("\ninterrupted: nothing was written\n"), "\(log)")
        let pids = Self.pids(workspace)
        #expect(pids.count == 2)
        for pid in pids { #expect(Self.ended(pid), "process \(pid) still runs") }
        #expect(workspace.bytes("s.sqlite") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path("tmp")) == [])
    }

    /// A Singer tap that notes where its config is and its process id, then hangs.
    static let tap = """
        #!/bin/sh
        echo "$2" > config-path
        echo $$ > pids
        exec sleep 300

        """

    static func singerWorkspace() throws -> RunWorkspace {
        let workspace = try Self.workspace(
            """
            rmap: 1
            entities:
              Note:
                source: { plugin: singer, command: [./tap.sh], config: { api_key: "${TAP_SECRET:-hush}" } }
                attributes: { id: int }

            """, files: ["tap.sh": Self.tap])
        #expect(chmod(workspace.path("tap.sh"), 0o755) == 0)
        return workspace
    }

    @Test(
        "a tap's config.json, 0600 in a 0700 folder, goes with rmap on SIGINT or SIGTERM",
        arguments: [SIGINT, SIGTERM])
    func singerConfig(signal: Int32) async throws {
        let workspace = try Self.singerWorkspace()
        let seen = Locked<(config: String, mode: mode_t, folderMode: mode_t)?>(nil)
        let configPath = workspace.path("config-path")
        let (ended, log) = try await Self.interrupt(
            workspace, ["run", workspace.path("m.yml"), "--store", "memory:"], lines: 1
        ) { child in
            while Self.lineCount(configPath) < 1 { usleep(20_000) }
            let config =
                (try? String(contentsOfFile: configPath, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            var file = stat()
            var folder = stat()
            _ = stat(config, &file)
            _ = stat(URL(fileURLWithPath: config).deletingLastPathComponent().deletingLastPathComponent().path, &folder)
            seen.withLock { $0 = (config, file.st_mode & 0o777, folder.st_mode & 0o777) }
            child.send(signal)
        }
        #expect(ended.signal == signal, "\(log)")
        let config = try #require(seen.withLock { $0 })
        #expect(config.config.hasPrefix(workspace.path("tmp") + "/rmap-private-"), "\(config.config)")
        #expect(config.mode == 0o600 && config.folderMode == 0o700, "\(config)")
        #expect(!FileManager.default.fileExists(atPath: config.config))
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path("tmp")) == [])
        for pid in Self.pids(workspace) { #expect(Self.ended(pid)) }
    }

    @Test("after a SIGKILL, the next rmap deletes the private folder the killed one left, config.json and all")
    func killed() async throws {
        let workspace = try Self.singerWorkspace()
        let configPath = workspace.path("config-path")
        let (ended, _) = try await Self.interrupt(
            workspace, ["run", workspace.path("m.yml"), "--store", "memory:"], lines: 1
        ) { child in
            while Self.lineCount(configPath) < 1 { usleep(20_000) }
            child.killNow()
        }
        #expect(ended.signal == SIGKILL)
        for pid in Self.pids(workspace) { kill(pid, SIGKILL) }  // nobody stops a killed rmap's tap
        let left = try FileManager.default.contentsOfDirectory(atPath: workspace.path("tmp"))
        #expect(left.count == 1 && left.first?.hasPrefix("rmap-private-") == true, "\(left)")
        let next = try await CLIRunner.run(
            ["validate", "m.yml"], in: workspace.url, environment: ["TMPDIR": workspace.path("tmp")])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path("tmp")) == [])
    }

    @Test(
        "timeout: stops a program that hangs, and what it started; the run fails naming the program",
        .timeLimit(.minutes(30)),
        arguments: [
            (
                "source: { plugin: exec, command: \(hanging), timeout: 0.5 }",
                "Error: exec sh -c echo $$ > pids; sleep 300 & echo $! >> pids; wait: did not finish within 0.5 s "
                    + "(its timeout): stopped\n"
            ),
            (
                "source: { plugin: singer, command: [sh, -c, 'echo $$ > pids; exec sleep 300', tap], timeout: 0.5 }",
                "Error: sh -c echo $$ > pids; exec sleep 300 tap: did not finish within 0.5 s (its timeout): stopped\n"
            ),
        ])
    func timeout(source: String, error: String) async throws {
        let workspace = try Self.workspace("rmap: 1\nentities:\n  Note:\n    \(source)\n    attributes: { id: int }\n")
        let result = try await workspace.rmap(["run", "m.yml", "--store", "memory:", "--quiet"])
        #expect(result.stderr == error)
        #expect(result.status == 1)
        for pid in Self.pids(workspace) { #expect(Self.ended(pid), "process \(pid) still runs") }
    }

    @Test("timeout: an exec stage or transformer that hangs is stopped too", .timeLimit(.minutes(30)))
    func execStageAndTransformer() async throws {
        let data = ["notes.json": #"[{"id": 1, "text": "a"}]"#]
        let stage = try Self.workspace(
            """
            rmap: 1
            stages: [{ plugin: exec, command: [sleep, "300"], timeout: 0.5 }]
            entities:
              Note: { source: { plugin: file, path: notes.json }, attributes: { id: int, text: string } }

            """, files: data)
        let stopped = try await stage.rmap(["run", "m.yml", "--store", "memory:", "--quiet"])
        #expect(stopped.stderr == "Error: exec sleep 300: did not finish within 0.5 s (its timeout): stopped\n")
        #expect(stopped.status == 1)
        let transformer = try Self.workspace(
            """
            rmap: 1
            entities:
              Note:
                source: { plugin: file, path: notes.json }
                attributes: { id: int, text: { type: string, transform: { exec: [sleep, "300"], timeout: 0.5 } } }

            """, files: data)
        let hung = try await transformer.rmap(["run", "m.yml", "--store", "memory:", "--quiet"])
        #expect(hung.stderr == "Error: exec sleep 300: did not finish within 0.5 s (its timeout): stopped\n")
        #expect(hung.status == 1)
    }

    @Test(
        "timeout: is validated like every key, at its position",
        arguments: [
            (
                "source: { plugin: exec, command: [true], timeout: 0 }", "run",
                "m.yml:4:55: 'timeout' must be a number of seconds (greater than 0), found '0'"
            ),
            (
                "source: { plugin: exec, command: [true], timout: 5 }", "validate",
                "m.yml:4:46: unknown key 'timout' in source (plugin 'exec') (did you mean 'timeout'?)"
            ),
            (
                "attributes: { id: { type: int, transform: { exec: [cat], timeout: soon } } }", "validate",
                "m.yml:4:71: 'timeout' must be a number of seconds (greater than 0), found 'soon'"
            ),
        ])
    func invalid(line: String, command: String, error: String) async throws {
        let workspace = try Self.workspace(
            "rmap: 1\nentities:\n  Note:\n    \(line)\n"
                + (line.hasPrefix("source") ? "    attributes: { id: int }\n" : ""))
        let result = try await workspace.rmap(
            [command, "m.yml"] + (command == "run" ? ["--store", "memory:", "--quiet"] : []))
        #expect(result.stderr == (command == "run" ? "Error: \(error)\n" : "\(error)\n"))
        #expect(result.status == (command == "run" ? 1 : 2))
    }
}
