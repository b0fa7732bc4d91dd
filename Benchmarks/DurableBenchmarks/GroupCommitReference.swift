// The floor under the group-commit figure: the least a group commit can do, measured in the same run on
// the same file system. Each submit writes one record of the journal's size with write(2) and returns once
// an fdatasync that began after its write has ended; whoever finds no sync under way runs one, and one
// sync covers every record written before it began. Nothing else is done: no encoding, no scheduler, no
// gathering. Two forms, each with one submitter and with 16:
//
//   threads  submitters are threads that block (a pthread mutex and condition variable; the submitter that
//            finds no sync under way runs it and then wakes every waiter with one broadcast);
//   tasks    submitters are tasks that suspend (a continuation each; a dedicated thread runs the syncs
//            while any task waits and resumes the ones each sync covered), so no submitter holds a thread
//            while it waits.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The minimal group commit whose submitters are blocking threads.
final class ThreadGroupCommit: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var writes: UInt64 = 0
    private var synced: UInt64 = 0
    private var syncing = false
    private let fd: Int32

    /// Creates the log file at `path`.
    init(path: String) {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
        guard fd >= 0 else { fatalError("open \(path) failed") }
    }

    deinit { close(fd) }

    /// Writes `record` and returns once a sync covered it.
    func submit(_ record: [UInt8]) {
        pthread_mutex_lock(&mutex)
        guard record.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == record.count else {
            fatalError("write failed")
        }
        writes += 1
        let mine = writes
        while synced < mine {
            if syncing {
                pthread_cond_wait(&condition, &mutex)
                continue
            }
            syncing = true
            let target = writes
            pthread_mutex_unlock(&mutex)
            guard fdatasync(fd) == 0 else { fatalError("fdatasync failed") }
            pthread_mutex_lock(&mutex)
            synced = max(synced, target)
            syncing = false
            pthread_cond_broadcast(&condition)
        }
        pthread_mutex_unlock(&mutex)
    }
}

/// The minimal group commit whose submitters are suspended tasks, synced by a dedicated thread.
final class TaskGroupCommit: @unchecked Sendable {
    private let lock = NSLock()
    private var writes: UInt64 = 0
    private var waiters: [(write: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    private var syncing = false
    private var closed = false
    private let wake = DispatchSemaphore(value: 0)
    private let fd: Int32

    /// Creates the log file at `path` and starts the syncing thread.
    init(path: String) {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
        guard fd >= 0 else { fatalError("open \(path) failed") }
        Thread { self.syncLoop() }.start()
    }

    /// Ends the syncing thread; no submit may be under way.
    func finish() {
        lock.withLock { closed = true }
        wake.signal()
    }

    /// Writes `record` and returns once a sync covered it.
    func submit(_ record: [UInt8]) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            guard record.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == record.count else {
                fatalError("write failed")
            }
            writes += 1
            waiters.append((writes, continuation))
            let start = !syncing
            syncing = true
            lock.unlock()
            if start { wake.signal() }
        }
    }

    /// Syncs while any submitter waits, resuming the ones each sync covered.
    private func syncLoop() {
        while true {
            wake.wait()
            while true {
                lock.lock()
                if closed {
                    lock.unlock()
                    close(fd)
                    return
                }
                guard !waiters.isEmpty else {
                    syncing = false
                    lock.unlock()
                    break
                }
                let target = writes
                lock.unlock()
                guard fdatasync(fd) == 0 else { fatalError("fdatasync failed") }
                lock.lock()
                let covered = waiters.prefix { $0.write <= target }
                waiters.removeFirst(covered.count)
                lock.unlock()
                for waiter in covered { waiter.continuation.resume() }
            }
        }
    }
}

/// Runs both references with one submitter and with `submitters`, `count` records each way; prints their
/// rates and returns the ratios of many to one.
func groupCommitReference(count: Int, submitters: Int, bytesPerRecord: Int) async -> (threads: Double, tasks: Double) {
    let record = [UInt8](repeating: 0x2a, count: bytesPerRecord)
    func directory(_ label: String) -> String {
        let path = freshDirectory("group-commit-reference-\(label)")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
    func threads(_ threads: Int, records: Int) -> Double {
        let path = directory("threads-\(threads)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = ThreadGroupCommit(path: path + "/log")
        let each = records / threads
        let elapsed = ContinuousClock().measure {
            let group = DispatchGroup()
            for _ in 0..<threads {
                group.enter()
                Thread {
                    for _ in 0..<each { log.submit(record) }
                    group.leave()
                }.start()
            }
            group.wait()
        }
        return Double(each * threads) / seconds(elapsed)
    }
    func tasks(_ tasks: Int, records: Int) async -> Double {
        let path = directory("tasks-\(tasks)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = TaskGroupCommit(path: path + "/log")
        defer { log.finish() }
        let each = records / tasks
        let start = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask { for _ in 0..<each { await log.submit(record) } }
            }
        }
        return Double(each * tasks) / seconds(start.duration(to: .now))
    }
    let oneThread = threads(1, records: count / 8)
    let manyThreads = threads(submitters, records: count)
    let oneTask = await tasks(1, records: count / 8)
    let manyTasks = await tasks(submitters, records: count)
    print(
        "group-commit floor (write(2) of \(bytesPerRecord) bytes, one fdatasync per batch, nothing else): threads "
            + "\(Int(oneThread)) → \(Int(manyThreads))/s with \(submitters) (\(String(format: "%.2f", manyThreads / oneThread))×); "
            + "tasks \(Int(oneTask)) → \(Int(manyTasks))/s (\(String(format: "%.2f", manyTasks / oneTask))×)")
    return (manyThreads / oneThread, manyTasks / oneTask)
}
