#if os(Linux)
    @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
    import Glibc
    import SyncGate
    import Testing

    /// SyncGate's executors, driven directly (installing them as the process's executors is the
    /// `syncgate` binary's part, tested end to end): jobs run in order, timed jobs when due, and the
    /// thread that keeps time wakes for a deadline earlier than the one it sleeps towards.
    /// (Each test makes an executor of its own; its threads stay, waiting, until the test process ends.)
    @Suite("Quiet executors", .timeLimit(.minutes(1)))
    struct QuietExecutorTests {
        /// What the jobs of one test record, in the order they ran.
        final class Record: Sendable {
            private let entries = LockedState<[String]>([])
            func append(_ entry: String) { entries.withLock { $0.append(entry) } }
            var all: [String] { entries.withLock { $0 } }
        }

        static func threadName() -> String {
            let file = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
            guard file >= 0 else { return "?" }
            defer { close(file) }
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = read(file, &bytes, bytes.count)
            return String(decoding: bytes.prefix(max(0, count)).filter { $0 != 10 }, as: UTF8.self)
        }

        @Test func oneWorkerRunsJobsInTheOrderTheyCame() async {
            let executor = QuietTaskExecutor(workers: 1)
            let record = Record()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                for index in 0..<200 {
                    executor.enqueue(
                        _swift_createJobForTestingOnly {
                            record.append("\(index) \(Self.threadName())")
                            if index == 199 { done.resume() }
                        })
                }
            }
            #expect(record.all == (0..<200).map { "\($0) sg-pool-0" })
        }

        @Test func dueJobsRunByDeadlineAndAnEarlierDeadlineWakesTheTimeKeeper() async {
            let sleeps = AsyncStream.makeStream(of: UInt64?.self)
            let executor = QuietTaskExecutor(workers: 1) { sleeps.continuation.yield($0) }
            let record = Record()
            let clock = ContinuousClock()
            // The time keeper first sleeps towards a deadline an hour away…
            executor.enqueue(
                _swift_createJobForTestingOnly { record.append("in an hour") }, after: .seconds(3600), tolerance: nil,
                clock: clock)
            for await deadline in sleeps.stream where deadline != nil { break }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                // …then jobs already due come: each must run at once. (The order of jobs released together
                // is the queues' rule, tested in "Executor queues"; these may be released one by one.)
                let now = clock.now
                let remaining = LockedState(3)
                for offset in [3, 1, 2] {
                    executor.enqueue(
                        _swift_createJobForTestingOnly {
                            record.append("due \(offset) ms ago")
                            let left = remaining.withLock { count in
                                count -= 1
                                return count
                            }
                            if left == 0 { done.resume() }
                        }, at: now - .milliseconds(offset), tolerance: nil, clock: clock)
                }
            }
            #expect(record.all.sorted() == ["due 1 ms ago", "due 2 ms ago", "due 3 ms ago"])
        }

        @Test func aTaskPreferringItRunsOnItsWorkers() async {
            let executor = QuietTaskExecutor(workers: 2)
            let name = await Task(executorPreference: executor) { Self.threadName() }.value
            #expect(name.hasPrefix("sg-pool-"))
        }

        @Test func theMainExecutorRunsJobsInOrderOnItsThreadUntilStopped() async throws {
            // The thread that creates the executor is its main thread; here a thread of the test's own.
            let ready = AsyncStream.makeStream(of: MainThreadExecutor.self)
            let finished = AsyncStream.makeStream(of: Void.self)
            let started = DedicatedThread.start(name: "test-main") {
                let executor = MainThreadExecutor()
                ready.continuation.yield(executor)
                try? executor.run()
                finished.continuation.yield()
                finished.continuation.finish()
            }
            var iterator = ready.stream.makeAsyncIterator()
            let executor = try #require(await iterator.next())
            #expect(executor.isIsolatingCurrentContext() == false)
            let record = Record()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                for index in 0..<50 {
                    executor.enqueue(
                        _swift_createJobForTestingOnly {
                            let isolated = executor.isIsolatingCurrentContext() == true
                            record.append("\(index) \(Self.threadName()) \(isolated)")
                            if index == 49 { done.resume() }
                        })
                }
            }
            #expect(record.all == (0..<50).map { "\($0) test-main true" })
            executor.stop()
            var ends = finished.stream.makeAsyncIterator()
            #expect(await ends.next() != nil)
            // Joined, so the thread sanitizer sees no leaked thread (it has returned from run() by now).
            pthread_join(try started.get(), nil)
        }
    }
#endif
