import Foundation
import RMap
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension RailsServerSuites {
    /// `rmap push` as users run it (the binary CLIRunner finds: `RMAP_BINARY` points it at the
    /// release build), against the Rails app: concurrency and kills.
    @Suite("rmap push against Rails")
    struct PushCommandTests {
        @Test("--jobs 8: 20 mixed changes each sent once, no child before its parent's answer is recorded")
        func jobsEight() async throws {
            let harness = try await PushHarness()
            try MixedChanges.make(harness)
            let result = try await MixedChanges.push(harness, jobs: 8)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr == "push: 20 sent, 20 acknowledged, 0 pending\n")
            let log = try await harness.log()
            #expect(log.count == 20 && log.allSatisfy { $0.status < 300 && !$0.replayed })
            let people = try await MixedChanges.newPeople(harness)
            for (index, entry) in log.enumerated() where entry.path == "/projects.json" {
                let parent = try #require(people.first { entry.body.contains(#""person_id":\#($0.value)"#) })
                let parentPost = log.firstIndex { $0.path == "/people.json" && $0.body.contains(parent.key) }
                #expect(try #require(parentPost) < index, "\(entry) left before its parent's answer")
            }
            try await MixedChanges.expectIntended(harness)
        }

        /// Kills 4 pushes, or 10 in the full run (``TestDepth``).
        static let kills = TestDepth.repetitions(quick: 4, full: 10)

        @Test("rmap push killed at random moments, then pushed to completion: each change lands exactly once")
        func killed() async throws {
            var delays: [Int] = []
            for _ in 1...Self.kills {
                let harness = try await PushHarness()
                try MixedChanges.make(harness)
                let delay = Int.random(in: 0...2500)
                delays.append(delay)
                try await MixedChanges.killPush(harness, afterMilliseconds: delay)
                var result = try await MixedChanges.push(harness, jobs: 8)
                if result.status != 0 { result = try await MixedChanges.push(harness, jobs: 8) }
                #expect(result.status == 0, "killed after \(delay) ms: \(result.stderr)")
                try await MixedChanges.expectIntended(harness, "killed after \(delay) ms")
            }
            #expect(delays.count == Self.kills)
        }
    }
}

/// A push workload of 20 changes on the Rails app: 4 new people (`New 1` ... `New 4`, last name
/// `Soak`), 2 new projects each pointing at them (`Project 1-1` ...), 6 changed tasks, 2 deleted.
enum MixedChanges {
    static func make(_ harness: PushHarness) throws {
        for person in 1...4 {
            try harness.sql(
                "INSERT INTO people (id, first_name, last_name) VALUES (-\(person), 'New \(person)', 'Soak')")
            for project in 1...2 {
                try harness.sql(
                    "INSERT INTO projects (id, name, person_id) "
                        + "VALUES (-\(person * 10 + project), 'Project \(person)-\(project)', -\(person))")
            }
        }
        for task in 1...6 { try harness.sql("UPDATE tasks SET title = 'Edited \(task)' WHERE id = \(task)") }
        try harness.sql("DELETE FROM tasks WHERE id IN (149, 150)")
    }

    /// `rmap push` on the harness's store.
    static func push(_ harness: PushHarness, jobs: Int) async throws -> CLIResult {
        let directory = try TemporaryDirectory()
        try directory.write("crm.yml", PushHarness.mapping(site: harness.site))
        return try await CLIRunner.run(
            ["push", "crm.yml", "--store", "sqlite:\(harness.path)", "--jobs", "\(jobs)"], in: directory.url)
    }

    /// Starts `rmap push --jobs 8` and kills it with SIGKILL after `delay` ms (or lets it end first).
    static func killPush(_ harness: PushHarness, afterMilliseconds delay: Int) async throws {
        let directory = try TemporaryDirectory()
        try directory.write("crm.yml", PushHarness.mapping(site: harness.site))
        let mapping = directory.url.appendingPathComponent("crm.yml").path
        let arguments = ["push", mapping, "--store", "sqlite:\(harness.path)", "--jobs", "8"]
        let binary = try CLIRunner.binary().path
        try await ProcessSlots.shared.holding {
            try await DedicatedThread.run {
                let child = try ChildProcess(binary, arguments, log: "/dev/null")
                usleep(UInt32(delay * 1000))
                child.killNow()
                _ = child.waitKilled()
            }.get()
        }
    }

    /// The server's ids of the new people, by first name.
    static func newPeople(_ harness: PushHarness) async throws -> [String: Int] {
        var ids: [String: Int] = [:]
        for person in try await harness.records("people") where person["last_name"]?.string == "Soak" {
            guard let name = person["first_name"]?.string, case .number(let id)? = person["id"] else { continue }
            ids[name] = Int(id)
        }
        return ids
    }

    /// The server holds exactly the intended state, each creation once, and nothing is left to push.
    static func expectIntended(_ harness: PushHarness, _ context: String = "") async throws {
        let people = try await harness.records("people").filter { $0["last_name"]?.string == "Soak" }
        #expect(people.compactMap { $0["first_name"]?.string }.sorted() == (1...4).map { "New \($0)" }, "\(context)")
        let ids = try await newPeople(harness)
        let projects = try await harness.records("projects").filter { $0["name"]?.string?.contains("-") == true }
        let expected = (1...4).flatMap { person in
            (1...2).map { "Project \(person)-\($0) of \(ids["New \(person)"].map(String.init) ?? "?")" }
        }
        let actual = projects.map { project in
            let owner = project["person_id"].flatMap { if case .number(let id) = $0 { id } else { nil } } ?? "nil"
            return "\(project["name"]?.string ?? "") of \(owner)"
        }
        #expect(actual.sorted() == expected.sorted(), "\(context)")
        let tasks = try await harness.records("tasks")
        #expect(!tasks.contains { [.number("149"), .number("150")].contains($0["id"]) }, "\(context)")
        let titles = tasks.filter { ($0["title"]?.string ?? "").hasPrefix("Edited") }.compactMap { $0["title"]?.string }
        #expect(titles.sorted() == (1...6).map { "Edited \($0)" }, "\(context)")
        let created = try await harness.log().filter { $0.method == "POST" && $0.status == 201 && !$0.replayed }
        #expect(created.count == 12, "\(context): \(created)")
        #expect(try harness.sync.changes().isEmpty, "\(context)")
    }
}
