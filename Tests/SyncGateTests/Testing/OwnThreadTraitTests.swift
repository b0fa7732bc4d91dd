import Foundation
import SyncGateTestSupport
import Testing

@Suite("OwnThreadTrait: a test on a thread of its own", .timeLimit(.minutes(1)))
struct OwnThreadTraitTests {
    /// The name of the thread running the caller, as the kernel reports it.
    static func threadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a synchronous test body runs on the test's own thread", .ownThread)
    func synchronousBody() {
        #expect(Self.threadName().hasPrefix("test-"))
    }

    @Test("an async test body stays on its thread across suspensions, and its child tasks run there", .ownThread)
    func asyncBody() async {
        #expect(Self.threadName().hasPrefix("test-"))
        await Task.yield()
        #expect(Self.threadName().hasPrefix("test-"))
        async let child = Self.threadName()
        #expect(await child.hasPrefix("test-"))
    }

    @Test("without the trait, a test runs on the cooperative pool")
    func withoutTheTrait() {
        #expect(!Self.threadName().hasPrefix("test-"))
    }
}
