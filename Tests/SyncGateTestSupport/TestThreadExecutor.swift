import Foundation
import SyncGateCore

/// A task executor with one thread of its own, for test bodies that block their thread.
///
/// A test that waits in `poll` for a child process, a D-Bus peer or the kernel holds its thread for the
/// whole wait. On Swift's cooperative pool (as many threads as processors, two here) a few such tests in
/// parallel leave no thread for the rest, whose time limits then pass while they wait for a thread. A
/// test body run with this executor as its task's preference (``OwnThreadTrait``) blocks this thread only.
///
/// Jobs run in the order they were enqueued. ``shutdown()`` lets the thread end once its queue is empty;
/// a job enqueued after that goes to the global concurrent executor, so none is ever lost.
final class TestThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// Guards `jobs` and `isShutDown`, and wakes the thread.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isShutDown = false

    /// Starts the executor's thread, named `name` (at most 15 bytes are kept; for stacks in a hang report).
    init(name: String) {
        let thread = Thread { [self] in
            // Named from the thread itself: a new thread otherwise shows its creator's name in the kernel.
            #if os(Linux)
                DedicatedThread.nameCurrentThread(name)
            #endif
            run()
        }
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        let accepted = !isShutDown
        if accepted { jobs.append(job) }
        condition.signal()
        condition.unlock()
        if !accepted { globalConcurrentExecutor.enqueue(job) }
    }

    /// Lets the thread end once it has run every job enqueued so far.
    func shutdown() {
        condition.lock()
        isShutDown = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while let job = next() {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// The next job, waiting for one; `nil` once shut down with nothing left.
    private func next() -> UnownedJob? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty {
            if isShutDown { return nil }
            condition.wait()
        }
        return jobs.removeFirst()
    }
}
