// Durable-job benchmarks: submit throughput with a synced write per submission and with batched
// syncs, and the time to restore 100 000 pending jobs into a scheduler.
//
//   swift run -c release DurableBenchmarks [--submits N] [--restore N]
//
// Also: submits per second with 10², 10⁴ and N (--restore) durable jobs pending.
//
// Prints a human summary and one JSON line per figure. The store lives in a fresh directory under
// the system's temporary directory, so the figures are those of that file system.

import Foundation
import SyncGate

struct Payload: Codable, Sendable {
    var photo: Int
    var path: String
}

func argument(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return value }
    return Int(arguments[index + 1]) ?? value
}

func freshDirectory(_ label: String) -> String {
    let path = NSTemporaryDirectory() + "syncgate-durable-bench-\(label)-\(getpid())"
    try? FileManager.default.removeItem(atPath: path)
    return path
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// A durable scheduler whose jobs never start (the network requirement is never met), with `work`
/// registered.
func makeScheduler(store: FileJobStore) throws -> DurableScheduler {
    let environment = SyncEnvironment(connectivity: NeverConnected())
    let durable = DurableScheduler(scheduler: SyncScheduler(environment: environment), store: store)
    try durable.register("work", payload: Payload.self) { _, _ in }
    return durable
}

final class NeverConnected: ConnectivityObserving {
    var status: ConnectivityStatus { .disconnected }
    var statusStream: AsyncStream<ConnectivityStatus> {
        AsyncStream { continuation in continuation.yield(.disconnected) }
    }
}

func report(_ name: String, _ fields: [String: Double]) {
    let json = fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ")
    print("{\"benchmark\": \"\(name)\", \(json)}")
}

func submitThroughput(label: String, durability: FileJobStore.Configuration.Durability, count: Int) async throws {
    let directory = freshDirectory(label)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try FileJobStore(directory: directory, configuration: .init(durability: durability))
    let scheduler = try makeScheduler(store: store)
    try scheduler.restoreJobs()
    let clock = ContinuousClock()
    let elapsed = try clock.measure {
        for index in 0..<count {
            try scheduler.submit(
                DurableJob(kind: "work", payload: Payload(photo: index, path: "/photos/\(index).heic")))
        }
    }
    try store.close()
    let rate = Double(count) / seconds(elapsed)
    print(
        "durable submit, \(label): \(count) jobs in \(elapsed), \(Int(rate)) submits/s, "
            + "\(String(format: "%.1f", seconds(elapsed) / Double(count) * 1e6)) µs each")
    report("durable-submit-\(label)", ["jobs": Double(count), "seconds": seconds(elapsed), "perSecond": rate])
}

/// Writes `count` pending jobs into a fresh journal in `directory` through the store alone: as many synced
/// submits would take minutes.
func fillJournal(_ directory: String, count: Int) throws {
    let filling = try FileJobStore(
        directory: directory, configuration: .init(durability: .batched(window: .seconds(1))))
    let encoder = JSONEncoder()
    let now = Date()
    for index in 0..<count {
        let payload = try encoder.encode(Payload(photo: index, path: "/photos/\(index).heic"))
        try filling.append(
            .submitted(
                StoredJob(
                    sequence: UInt64(index + 1), id: "job-\(index)", kind: "work", payload: payload, submittedAt: now,
                    options: SyncJobOptions(serialGroup: index % 10 == 0 ? "serial" : nil, tags: ["bench"]))))
    }
    try filling.close()
}

/// Submits per second with `pending` durable jobs already queued (restored from the journal), the syncs
/// batched a second apart so that the figure is the submission's own cost.
func submitVersusPending(pending: Int, count: Int) async throws {
    let directory = freshDirectory("pending-\(pending)")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try fillJournal(directory, count: pending)
    let store = try FileJobStore(directory: directory, configuration: .init(durability: .batched(window: .seconds(1))))
    let scheduler = try makeScheduler(store: store)
    let restored = try scheduler.restoreJobs().restored.count
    let clock = ContinuousClock()
    let elapsed = try clock.measure {
        for index in 0..<count {
            try scheduler.submit(
                DurableJob(kind: "work", payload: Payload(photo: index, path: "/photos/new-\(index).heic")))
        }
    }
    try store.close()
    let rate = Double(count) / seconds(elapsed)
    print("durable submit with \(restored) pending: \(count) jobs in \(elapsed), \(Int(rate)) submits/s")
    report("durable-submit-vs-pending", ["pending": Double(restored), "jobs": Double(count), "perSecond": rate])
}

func restoreTime(count: Int) async throws {
    let directory = freshDirectory("restore")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try fillJournal(directory, count: count)
    let bytes = (try? FileManager.default.attributesOfItem(atPath: directory + "/journal")[.size] as? Int) ?? 0

    let clock = ContinuousClock()
    var store: FileJobStore?
    let openElapsed = try clock.measure { store = try FileJobStore(directory: directory) }
    let scheduler = try makeScheduler(store: store!)
    var restored = 0
    let restoreElapsed = try clock.measure { restored = try scheduler.restoreJobs().restored.count }
    print(
        "restore \(restored) pending jobs (journal \(bytes / 1024) KiB): open+scan \(openElapsed), "
            + "restore into the scheduler \(restoreElapsed), total \(openElapsed + restoreElapsed)")
    report(
        "durable-restore",
        [
            "jobs": Double(restored), "journalBytes": Double(bytes), "openSeconds": seconds(openElapsed),
            "restoreSeconds": seconds(restoreElapsed), "totalSeconds": seconds(openElapsed + restoreElapsed),
        ])
}

let submits = argument("--submits", default: 2000)
let restoreCount = argument("--restore", default: 100_000)
try await submitThroughput(label: "fsync-each", durability: .synchronous, count: submits)
try await submitThroughput(label: "batched-5ms", durability: .batched(window: .milliseconds(5)), count: submits * 5)
for pending in [100, 10_000, restoreCount] {
    try await submitVersusPending(pending: pending, count: submits)
}
try await restoreTime(count: restoreCount)
