import Foundation
import RMap
import RMapHTTP
import Testing

extension RailsServerSuites {
    /// `rmap run` (the binary ``CLIRunner`` finds) between a push the server answered and the
    /// recording of its answers, on SQLite and PostgreSQL (issue #30): the run imports the created
    /// objects beside their local rows, and the push's answers merge the two, never a wedged store.
    @Suite("Runs and pushes that meet")
    struct PushMeetsRunTests {
        /// Katherine and her project Apollo, both new, through the library.
        private func newPair(_ harness: PushHarness) throws {
            let person = try harness.sync.insert(
                "Person", ["firstName": .string("Katherine"), "lastName": .string("Johnson")])
            let project = try harness.sync.insert("Project", ["name": .string("Apollo")])
            try harness.sync.link(project, "owner", to: person)
        }

        /// Katherine and Apollo are on the server once each, linked, and in the store once each under
        /// the server's identities, with nothing left to push.
        private func expectOnce(_ harness: PushHarness) async throws {
            let people = try await harness.records("people").filter { $0["first_name"]?.string == "Katherine" }
            #expect(people.map { $0["id"] } == [.number("26")])
            let projects = try await harness.records("projects").filter { $0["name"]?.string == "Apollo" }
            #expect(projects.map { $0["person_id"] } == [.number("26")])
            let apollo = try #require(projects.first?["id"].flatMap { ValueConverter.value(from: $0, as: .int) })

            let stored = try harness.sync.objects(of: "Person")
            #expect(stored.count == 26)
            #expect(stored.filter { $0["firstName"] == .string("Katherine") }.map(\.identity) == [[.int(26)]])
            let storedApollo = try harness.sync.objects(of: "Project").filter { $0["name"] == .string("Apollo") }
            #expect(storedApollo.map { [$0["id"], $0["personId"]] } == [[apollo, .int(26)]])
            #expect(try harness.sync.changes().isEmpty)
        }

        @Test(
            "a run after a push that lost the creation's answer: the next push merges, sends the child, no wedge",
            arguments: PushHarness.stores)
        func runAfterInterruptedPush(kind: StoreKind?) async throws {
            let harness = try await PushHarness(kind: kind)
            try newPair(harness)
            let first = try await harness.push(transport: FaultyTransport.losingAnswers(ofFirstPOSTs: 1))
            #expect(first.acknowledged == 0 && first.pending.count == 2)

            let run = try await harness.rmap("run", ["--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.hasPrefix("note: 1 creation sent by a push has no recorded answer yet"), "\(run.stderr)")
            let katherines = try harness.sync.objects(of: "Person").filter { $0["firstName"] == .string("Katherine") }
            #expect(katherines.map(\.identity) == [[.int(-1)], [.int(26)]])

            let push = try await harness.rmap("push")
            #expect(push.status == 0, "\(push.stderr)")
            #expect(push.stderr == "push: 2 sent, 2 acknowledged, 0 pending\n")
            try await expectOnce(harness)
            let again = try await harness.rmap("run", ["--quiet"])
            #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
            let posts = try await harness.log().filter { $0.method == "POST" }
            #expect(posts.map(\.path) == ["/people.json", "/people.json", "/projects.json"])
            #expect(posts.map(\.replayed) == [false, true, false])
            #expect(posts[1].idempotencyKey == posts[0].idempotencyKey)
        }

        @Test(
            "a run while a push waits for a creation's answer: the answer merges with the row the run imported",
            arguments: PushHarness.stores)
        func runDuringPush(kind: StoreKind?) async throws {
            // The run is `rmap`'s, from inside the transport: where CLI tests do not run, this one does not.
            _ = try CLIRunner.binary()
            let harness = try await PushHarness(kind: kind)
            try newPair(harness)
            let (site, store) = (harness.site, harness.storeArgument)
            let run = Locked<CLIResult?>(nil)
            let transport = InterleavingTransport {
                let result = try await PushHarness.rmap("run", site: site, store: store, ["--quiet"])
                run.withLock { $0 = result }
            }
            let report = try await harness.push(transport: transport)
            let ran = try #require(run.withLock { $0 })
            #expect(ran.status == 0, "\(ran.stderr)")
            #expect(ran.stderr.hasPrefix("note: 1 creation sent by a push has no recorded answer yet"), "\(ran.stderr)")
            #expect(report.isComplete, "\(report.pending)")
            #expect(report.sent == 2 && report.acknowledged == 2)
            try await expectOnce(harness)
            let posts = try await harness.log().filter { $0.method == "POST" }
            #expect(posts.map(\.path) == ["/people.json", "/projects.json"])
        }
    }
}
