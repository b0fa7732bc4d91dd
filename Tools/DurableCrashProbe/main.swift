// The helper of the durable-job crash test (SyncGateLinuxTests/DurableCrashTests): a process that
// restores durable jobs from a FileJobStore, submits new ones and runs them, reporting each step on
// stdout as one line written with a single write(2), so a test that kills it with SIGKILL knows what
// happened before the kill.
//
//   syncgate-durable-probe run <directory> <generation> <jobs> <seed> [sync|batched]
//       prints: open <issues> | restored <n> interrupted <k> | depends <id> <dependency> | submitted <id>
//               | start <id> <attempt> | finish <id> | cancelling <id> | resolved <id> <outcome> | done
//       About a third of the jobs depend on an earlier job of their generation (`depends` comes before
//       the submission) and read its output, its number; a missing or wrong input prints
//       `error input <id> …`. The jobs wait for the condition `go`, set once all are submitted, so that
//       every dependency is unfinished when its dependents are submitted.
//       Most generations also submit a periodic job `p<generation>` (every 40 ms, flex 30 ms), whose
//       runs print `start` and `finish` too; a run that finds three periods of its series ended
//       (run or skipped, across restarts) prints `cancelling <id>` and cancels the series.
//       A run that begins while another run of its series is under way prints `error overlap <id>`.
//   syncgate-durable-probe open <directory> [--as-nobody]
//       opens the store (after dropping to uid/gid 65534 with --as-nobody) and prints `opened` or
//       `error <description>`.
//   syncgate-durable-probe submit <directory> <first> <count> [submitters] [tasks]
//       restores (printing `restored <n>`), then submits durable jobs `s<first>` … (synchronous durability)
//       that wait for a condition nobody sets, printing `accepted <id>` or `refused <id> <error>` for each,
//       then `done`.
//       With `submitters` above 1, that many threads submit at once (their syncs grouped), each its share;
//       with `tasks`, the submitters are tasks calling `submitWithoutBlocking`.
//       The failing-sync test runs it with an LD_PRELOAD shim that fails fdatasync.
//   syncgate-durable-probe churn <directory> <seed>
//       appends submissions and resolutions to the store directly, so that it compacts every few
//       records, printing `submitting <id>` / `resolving <id>` before an append and `accepted <id>` /
//       `resolved <id>` once it returned; it runs until killed (the compaction-kill test).

import Foundation
import SyncGate
import SyncGateTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct WorkItem: Codable, Sendable {
    /// A job this one depends on, and the output it sets (its number).
    struct Dependency: Codable, Sendable {
        var id: String
        var number: Int
    }

    var number: Int
    var failsFirstAttempt: Bool
    var workMicroseconds: Int
    var dependsOn: [Dependency] = []
}

/// Writes one line with a single write(2), so it reaches the pipe before a kill that follows it.
func emit(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: syncgate-durable-probe run|open|submit|churn …\n".utf8))
    exit(2)
}

func run(directory: String, generation: Int, jobCount: Int, seed: UInt64, batched: Bool) async throws {
    let store = try FileJobStore(
        directory: directory,
        configuration: .init(
            durability: batched ? .batched(window: .milliseconds(5)) : .synchronous,
            compactionMinimumDeadRecords: 16))
    emit("open \(try store.load().issues.count)")

    let scheduler = try SyncScheduler(
        environment: SyncEnvironment(), configuration: .init(maxConcurrentJobs: 4))
    let durable = DurableScheduler(scheduler: scheduler, store: store)
    let runningSeries = LockedState<Set<String>>([])
    try durable.register("tick", payload: WorkItem.self) { item, context in
        let id = context.jobID
        if !runningSeries.withLock({ $0.insert(id).inserted }) { emit("error overlap \(id)") }
        defer { runningSeries.withLock { _ = $0.remove(id) } }
        emit("start \(id) \(context.attempt)")
        let periods = scheduler.job(id: id)?.periods
        if let periods, periods.succeeded + periods.failed + periods.skipped >= 3 {
            emit("cancelling \(id)")
            scheduler.cancel(jobID: id)
            return
        }
        if item.workMicroseconds > 0 { try await Task.sleep(for: .microseconds(item.workMicroseconds)) }
        emit("finish \(id)")
    }
    try durable.register("work", payload: WorkItem.self) { item, context in
        emit("start \(context.jobID) \(context.attempt)")
        for dependency in item.dependsOn {
            let input = context.input(Int.self, from: dependency.id)
            if input != dependency.number {
                emit("error input \(context.jobID) from \(dependency.id): \(String(describing: input))")
            }
        }
        if item.workMicroseconds > 0 { try await Task.sleep(for: .microseconds(item.workMicroseconds)) }
        if item.failsFirstAttempt && context.attempt == 1 { throw CancellationError() }
        context.setOutput(item.number)
        emit("finish \(context.jobID)")
    }
    let report = try durable.restoreJobs()
    emit("restored \(report.restored.count) interrupted \(report.interrupted.count)")
    for kept in report.kept { emit("kept \(kept)") }

    var random = SeededRandom(seed: seed ^ UInt64(generation) &* 0x1000_0000_01B3)
    var handles = report.restored
    for index in 0..<jobCount {
        var item = WorkItem(
            number: index, failsFirstAttempt: random.next(below: 4) == 0, workMicroseconds: random.next(below: 3000))
        let id = "g\(generation)-\(index)"
        if index > 0 && random.next(below: 3) == 0 {
            let dependency = random.next(below: index)
            item.dependsOn = [WorkItem.Dependency(id: "g\(generation)-\(dependency)", number: dependency)]
            emit("depends \(id) g\(generation)-\(dependency)")
        }
        var job = DurableJob(
            id: id, kind: "work", payload: item, requires: [], conditions: ["go"],
            retry: .fixed(delay: .milliseconds(1), maxAttempts: 3),
            serialGroup: random.next(below: 3) == 0 ? "serial" : nil)
        job.dependsOn = item.dependsOn.map(\.id)
        // Odd generations submit without blocking: the same promise, reached by suspending.
        let handle =
            generation.isMultiple(of: 2) ? try durable.submit(job) : try await durable.submitWithoutBlocking(job)
        emit("submitted \(id)")
        handles.append(handle)
    }
    if jobCount > 0 && random.next(below: 4) != 0 {
        let id = "p\(generation)"
        var job = DurableJob(
            id: id, kind: "tick", payload: WorkItem(number: 0, failsFirstAttempt: false, workMicroseconds: 2000),
            requires: [])
        job.period = SyncJobPeriod(every: .milliseconds(40), flex: .milliseconds(30))
        handles.append(try durable.submit(job))
        emit("submitted \(id)")
    }
    try scheduler.environment.setCondition("go", isMet: true)
    await withTaskGroup(of: Void.self) { group in
        for handle in handles {
            group.addTask {
                guard let outcome = try? await handle.outcome() else { return }
                emit("resolved \(handle.id) \(outcome.state)")
            }
        }
    }
    try store.close()
    emit("done")
}

func open(directory: String, asNobody: Bool) {
    if asNobody {
        guard setgid(65534) == 0, setuid(65534) == 0 else {
            emit("error cannot drop privileges: \(String(cString: strerror(errno)))")
            exit(1)
        }
    }
    do {
        _ = try FileJobStore(directory: directory)
        emit("opened")
    } catch {
        emit("error \(error)")
    }
}

/// The payload of the jobs of `submit` and `churn`: its text is checked byte for byte by the tests.
struct Note: Codable, Sendable {
    var text: String
}

func submit(directory: String, first: Int, count: Int, submitters: Int, tasks: Bool) async throws {
    let store = try FileJobStore(directory: directory)
    let scheduler = SyncScheduler(environment: SyncEnvironment())
    let durable = DurableScheduler(scheduler: scheduler, store: store)
    try durable.register("note", payload: Note.self) { _, _ in }
    emit("restored \(try durable.restoreJobs().restored.count)")
    @Sendable func job(_ number: Int) -> DurableJob<Note> {
        DurableJob(
            id: "s\(number)", kind: "note", payload: Note(text: "note \(number)"), requires: [],
            conditions: ["never-set"])
    }
    @Sendable func told(_ id: String, _ error: (any Error)?) {
        emit(error.map { "refused \(id) \($0)" } ?? "accepted \(id)")
    }
    if tasks {
        await withTaskGroup(of: Void.self) { group in
            for submitter in 0..<submitters {
                group.addTask {
                    for number in stride(from: first + submitter, to: first + count, by: submitters) {
                        do {
                            try await durable.submitWithoutBlocking(job(number))
                            told("s\(number)", nil)
                        } catch {
                            told("s\(number)", error)
                        }
                    }
                }
            }
        }
        emit("done")
        return
    }
    let group = DispatchGroup()
    for submitter in 0..<submitters {
        group.enter()
        Thread {
            for number in stride(from: first + submitter, to: first + count, by: submitters) {
                do {
                    try durable.submit(job(number))
                    told("s\(number)", nil)
                } catch {
                    told("s\(number)", error)
                }
            }
            group.leave()
        }.start()
    }
    group.wait()
    emit("done")
}

func churn(directory: String, seed: UInt64) throws {
    let store = try FileJobStore(
        directory: directory, configuration: .init(durability: .synchronous, compactionMinimumDeadRecords: 4))
    let contents = try store.load()
    var live = contents.jobs.map { ($0.sequence, $0.id) }
    var sequence = contents.highestSequence
    var random = SeededRandom(seed: seed)
    emit("open \(live.count)")
    while true {
        if live.isEmpty || random.next(below: 2) == 0 {
            sequence += 1
            let id = "c\(seed % 100_000)-\(sequence)"
            emit("submitting \(id)")
            let payload = Data(#"{"text":"churn \#(id)"}"#.utf8)
            try store.append(
                .submitted(
                    StoredJob(
                        sequence: sequence, id: id, kind: "note", payload: payload, submittedAt: Date())))
            live.append((sequence, id))
            emit("accepted \(id)")
        } else {
            let (resolved, id) = live.remove(at: random.next(below: live.count))
            emit("resolving \(id)")
            try store.append(.resolved(sequence: resolved, resolution: .succeeded))
            emit("resolved \(id)")
        }
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { usage() }
switch arguments[1] {
case "run":
    guard arguments.count >= 6, let generation = Int(arguments[3]), let jobs = Int(arguments[4]),
        let seed = UInt64(arguments[5])
    else { usage() }
    do {
        try await run(
            directory: arguments[2], generation: generation, jobCount: jobs, seed: seed,
            batched: arguments.count > 6 && arguments[6] == "batched")
    } catch {
        emit("error \(error)")
        exit(1)
    }
case "open":
    open(directory: arguments[2], asNobody: arguments.contains("--as-nobody"))
case "submit":
    guard arguments.count >= 5, let first = Int(arguments[3]), let count = Int(arguments[4]) else { usage() }
    let submitters = arguments.count > 5 ? Int(arguments[5]) ?? 0 : 1
    guard submitters >= 1 else { usage() }
    let tasks = arguments.count > 6 && arguments[6] == "tasks"
    do {
        try await submit(directory: arguments[2], first: first, count: count, submitters: submitters, tasks: tasks)
    } catch {
        emit("error \(error)")
        exit(1)
    }
case "churn":
    guard arguments.count >= 4, let seed = UInt64(arguments[3]) else { usage() }
    do {
        try churn(directory: arguments[2], seed: seed)
    } catch {
        emit("error \(error)")
        exit(1)
    }
default:
    usage()
}
