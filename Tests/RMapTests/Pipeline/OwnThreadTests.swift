import Foundation
import Testing

@testable import RMap

/// Code that blocks between its awaits (`rmap push`'s store work) runs on an ``OwnThread``:
/// the body, and `nonisolated(nonsending)` functions it awaits (as `Pusher.push` is), run on the
/// actor's thread, across suspensions, and never on the cooperative pool.
@Suite("Own thread: blocking work off the cooperative pool")
struct OwnThreadTests {
    /// Stands for `Pusher.push`: runs on its caller's actor, suspends, and reports where it ran.
    nonisolated(nonsending) static func storeWork(_ thread: OwnThread) async -> [Bool] {
        let before = thread.isCurrent
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(10))
        return [before, thread.isCurrent]
    }

    @Test("the body and what it awaits run on the actor's thread, before and after suspending")
    func runsOnItsThread() async {
        let thread = OwnThread(label: "rmap.test.own-thread")
        #expect(!thread.isCurrent)
        let places = await thread.run { thread in
            let body = thread.isCurrent
            return [body] + (await Self.storeWork(thread))
        }
        #expect(places == [true, true, true])
        #expect(!thread.isCurrent)
    }

    @Test("a task the body starts runs on the pool, not on the thread")
    func childTasksRunOnThePool() async {
        let thread = OwnThread(label: "rmap.test.own-thread")
        let inChild = await thread.run { thread in
            await withTaskGroup(of: Bool.self) { group in
                group.addTask { thread.isCurrent }
                return await group.next() ?? true
            }
        }
        #expect(inChild == false)
    }
}
