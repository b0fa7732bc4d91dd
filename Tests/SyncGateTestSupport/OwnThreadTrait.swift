import Testing

/// Runs each test of a suite (or a test) on a thread of its own instead of Swift's cooperative pool.
///
/// For tests that hold their thread for long (a CPU-bound seeded workload, a wait for threads the test
/// started): on the cooperative pool, which has as many threads as processors, a few of them in parallel
/// hold every thread, and other tests pass their time limits waiting for one. Here each test case's task
/// prefers a ``TestThreadExecutor`` made for it, so its body, the synchronous calls it makes and the async
/// functions it awaits (unless isolated to an actor) run on that thread; structured child tasks inherit
/// the preference. Unstructured `Task {}`s it creates still run on the pool.
///
/// It does not bound how many such tests run at once: combine it with `.serialized` where the tests are
/// heavy. Suites that start child processes take ``ProcessSuiteTrait`` instead, which also bounds how many
/// of them run at once.
package struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else {
            // A suite's own scope: its tests get theirs one by one.
            try await function()
            return
        }
        let executor = TestThreadExecutor(name: "test-\(test.name.prefix(10))")
        defer { executor.shutdown() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Runs each test on a thread of its own, off Swift's cooperative pool (see ``OwnThreadTrait``).
    package static var ownThread: Self { OwnThreadTrait() }
}
