// The helper of the durable-job crash test (SyncGateLinuxTests/DurableCrashTests): a process that
// restores durable jobs from a FileJobStore, submits new ones and runs them, reporting each step on
// stdout as one line written with a single write(2), so a test that kills it with SIGKILL knows what
// happened before the kill.
//
//   syncgate-durable-probe run <directory> <generation> <jobs> <seed> [sync|batched]
//       prints: open <issues> | restored <n> interrupted <k> | submitted <id> | start <id> <attempt>
//               | finish <id> | resolved <id> <outcome> | done
//   syncgate-durable-probe open <directory> [--as-nobody]
//       opens the store (after dropping to uid/gid 65534 with --as-nobody) and prints `opened` or
//       `error <description>`.

import Foundation
import SyncGate

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct WorkItem: Codable, Sendable {
    var number: Int
    var failsFirstAttempt: Bool
    var workMicroseconds: Int
}

/// Writes one line with a single write(2), so it reaches the pipe before a kill that follows it.
func emit(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

/// SplitMix64, for reproducible job shapes.
struct SeededRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: syncgate-durable-probe run|open …\n".utf8))
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
    try durable.register("work", payload: WorkItem.self) { item, context in
        emit("start \(context.jobID) \(context.attempt)")
        if item.workMicroseconds > 0 { try await Task.sleep(for: .microseconds(item.workMicroseconds)) }
        if item.failsFirstAttempt && context.attempt == 1 { throw CancellationError() }
        emit("finish \(context.jobID)")
    }
    let report = try durable.restoreJobs()
    emit("restored \(report.restored.count) interrupted \(report.interrupted.count)")
    for kept in report.kept { emit("kept \(kept)") }

    var random = SeededRandom(state: seed ^ UInt64(generation) &* 0x1000_0000_01B3)
    var handles = report.restored
    for index in 0..<jobCount {
        let item = WorkItem(
            number: index, failsFirstAttempt: random.next(below: 4) == 0, workMicroseconds: random.next(below: 3000))
        let id = "g\(generation)-\(index)"
        let handle = try durable.submit(
            DurableJob(
                id: id, kind: "work", payload: item, requires: [],
                retry: .fixed(delay: .milliseconds(1), maxAttempts: 3),
                serialGroup: random.next(below: 3) == 0 ? "serial" : nil))
        emit("submitted \(id)")
        handles.append(handle)
    }
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
default:
    usage()
}
