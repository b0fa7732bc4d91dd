import Testing

/// Runs a suite whose tests start child processes, D-Bus peers or network namespaces: at most
/// ``ProcessSuiteTrait/concurrentSuites`` such suites at once, and each of their tests on a thread of its
/// own.
///
/// Such tests wait in `poll` and `waitpid`, holding their thread for the whole wait. On Swift's cooperative
/// pool (as many threads as processors) a few of them in parallel leave no thread for the rest of the
/// suite, whose time limits then pass while they wait for one; so each test case runs on a
/// ``TestThreadExecutor`` of its own, as with ``OwnThreadTrait``. Off the pool nothing bounds how many of
/// them start their processes together, and on a small machine all of them at once slow each child past
/// its test's deadline; so the suites take turns. The turn is taken in the suite's own scope, which Swift
/// Testing runs outside every test's time limit: waiting for a turn never counts against a test.
///
/// A suite nested in one that holds a turn runs within that turn.
package struct ProcessSuiteTrait: SuiteTrait, TestTrait, TestScoping {
    /// How many suites with this trait run at once.
    package static let concurrentSuites = 2

    /// The turns every suite with this trait takes.
    package static let turns = SuiteSlots(capacity: concurrentSuites)

    /// Whether the current task runs inside a suite that holds a turn.
    @TaskLocal private static var holdsTurn = false

    /// Whether the calling task runs inside a suite that holds a turn.
    package static var isInTurn: Bool { holdsTurn }

    package var isRecursive: Bool { true }

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase != nil || test.isSuite ? self : nil
    }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if testCase != nil {
            let executor = TestThreadExecutor(name: "proc-\(test.name.prefix(10))")
            defer { executor.shutdown() }
            try await withTaskExecutorPreference(executor) { try await function() }
        } else if Self.holdsTurn {
            try await function()
        } else {
            await Self.turns.acquire()
            defer { Self.turns.release() }
            try await Self.$holdsTurn.withValue(true) { try await function() }
        }
    }
}

extension Trait where Self == ProcessSuiteTrait {
    /// Runs the suite in a turn shared with other suites that start processes, each test on a thread of
    /// its own (see ``ProcessSuiteTrait``).
    package static var startsProcesses: Self { ProcessSuiteTrait() }
}
