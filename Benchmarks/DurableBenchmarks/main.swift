// Durable-job benchmarks beside SQLite in the same run, on the same file system (fresh directories under
// the system's temporary directory):
//
//   swift build -c release --product DurableBenchmarks && .build/release/DurableBenchmarks [--submits N] [--restore N]
//
// Figures (one JSON line each, after a human summary line):
//   sqlite-wal-full, sqlite-wal-normal    inserts/s, one transaction per insert, WAL, synchronous FULL / NORMAL
//   sqlite-read-pending                   open a database of N (--restore) rows and read them all
//   durable-submit-synced                 one submitter, each submit synced (fdatasync) before it returns
//   durable-submit-group-commit           16 submitter tasks by `submitWithoutBlocking`, each submit synced
//                                         before it returns (group commit)
//   durable-submit-group-commit-threads   the same from 16 threads by the blocking `submit`
//   durable-submit-one-task               one task by `submitWithoutBlocking`
//   group-commit-reference                the least a group commit can do (GroupCommitReference.swift):
//                                         write(2) and a shared fdatasync, 16 ÷ 1 threads and 16 ÷ 1 tasks;
//                                         the group commit's figures and this reference alternate in 3 rounds
//   durable-submit-crash-safe             `.batched(window:)`: written at once (survives a crash of the
//                                         process), synced within the window (not power-loss safe)
//   durable-submit-vs-pending             submits/s with 10², 10⁴ and N durable jobs pending (median of rounds)
//   durable-submit-vs-kept                submits/s and restore time with 10⁴ stored jobs of a kind not
//                                         registered (kept in the store, holding their ids)
//   durable-restore                       open the store and restore N pending jobs into the scheduler
//                                         (in a fresh process of its own, as an app's launch would)
//   scheduler-submit-reference            the floor under every durable figure: the same jobs submitted
//                                         to a plain SyncScheduler (no store), one at a time
//   scheduler-batch-reference             N jobs entered into a plain SyncScheduler by one
//                                         `submit(contentsOf:)`, and by N `submit(_:)` calls (these two
//                                         references in a fresh process of their own, as the restore)
// and a summary of each goal's ratio to its SQLite anchor.

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

/// Submits per second through a durable scheduler, from `submitters` threads at once (`count` jobs in all);
/// returns the rate.
@discardableResult
func submitThroughput(
    label: String, durability: FileJobStore.Configuration.Durability, count: Int, submitters: Int = 1,
    reporting: Bool = true
) throws -> Double {
    let directory = freshDirectory(label)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try FileJobStore(directory: directory, configuration: .init(durability: durability))
    let scheduler = try makeScheduler(store: store)
    try scheduler.restoreJobs()
    let perSubmitter = count / submitters
    let failures = LockedCounter()
    let elapsed = ContinuousClock().measure {
        let group = DispatchGroup()
        for submitter in 0..<submitters {
            group.enter()
            let thread = Thread {
                for index in submitter * perSubmitter..<(submitter + 1) * perSubmitter {
                    do {
                        try scheduler.submit(
                            DurableJob(kind: "work", payload: Payload(photo: index, path: "/photos/\(index).heic")))
                    } catch {
                        failures.add()
                    }
                }
                group.leave()
            }
            thread.start()
        }
        group.wait()
    }
    try store.close()
    guard failures.value == 0 else { fatalError("\(failures.value) submits failed in \(label)") }
    return submitRate(
        label: label, text: "durable submit, \(label), \(submitters) submitter(s)", jobs: perSubmitter * submitters,
        submitters: submitters, elapsed: elapsed, reporting: reporting)
}

/// The rate of `jobs` submits in `elapsed`; printed and reported as `durable-submit-<label>` when `reporting`.
func submitRate(
    label: String, text: String, jobs: Int, submitters: Int, elapsed: Duration, reporting: Bool
) -> Double {
    let rate = Double(jobs) / seconds(elapsed)
    guard reporting else { return rate }
    print(
        "\(text): \(jobs) jobs in \(elapsed), \(Int(rate)) submits/s, "
            + "\(String(format: "%.1f", seconds(elapsed) / Double(jobs) * 1e6)) µs each")
    report(
        "durable-submit-\(label)",
        ["jobs": Double(jobs), "submitters": Double(submitters), "seconds": seconds(elapsed), "perSecond": rate])
    return rate
}

/// Submits per second through a durable scheduler by `submitWithoutBlocking`, from `submitters` tasks at once
/// (`count` jobs in all); returns the rate.
@discardableResult
func suspendingSubmitThroughput(label: String, count: Int, submitters: Int, reporting: Bool = true) async throws
    -> Double
{
    let directory = freshDirectory(label)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try FileJobStore(directory: directory)
    let scheduler = try makeScheduler(store: store)
    try scheduler.restoreJobs()
    let perSubmitter = count / submitters
    let start = ContinuousClock.now
    let failures = await withTaskGroup(of: Int.self) { group in
        for submitter in 0..<submitters {
            group.addTask {
                var failures = 0
                for index in submitter * perSubmitter..<(submitter + 1) * perSubmitter {
                    do {
                        try await scheduler.submitWithoutBlocking(
                            DurableJob(kind: "work", payload: Payload(photo: index, path: "/photos/\(index).heic")))
                    } catch {
                        failures += 1
                    }
                }
                return failures
            }
        }
        return await group.reduce(0, +)
    }
    let elapsed = start.duration(to: .now)
    try store.close()
    guard failures == 0 else { fatalError("\(failures) submits failed in \(label)") }
    return submitRate(
        label: label, text: "durable submitWithoutBlocking, \(label), \(submitters) task(s)",
        jobs: perSubmitter * submitters, submitters: submitters, elapsed: elapsed, reporting: reporting)
}

/// Times `subject` and `anchor` alternately in `rounds` rounds, the first of each pair alternating, so that
/// this VM's slow and fast spells fall on both alike; returns each side's figure per round.
func interleaved<Subject, Anchor>(
    rounds: Int, subject: () async throws -> Subject, anchor: () async throws -> Anchor
) async rethrows -> (subject: [Subject], anchor: [Anchor]) {
    var subjects: [Subject] = []
    var anchors: [Anchor] = []
    for round in 0..<rounds {
        if round.isMultiple(of: 2) {
            subjects.append(try await subject())
            anchors.append(try await anchor())
        } else {
            anchors.append(try await anchor())
            subjects.append(try await subject())
        }
    }
    return (subjects, anchors)
}

/// The median of `values` (the upper one of an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

/// The rounds' figures as whole numbers, for a printed line.
func roundsText(_ rates: [Double]) -> String {
    rates.map { String(Int($0)) }.joined(separator: ", ")
}

/// Prints and reports a figure timed in rounds: per second, the median of its rounds.
@discardableResult
func reportRounds(_ name: String, _ text: String, countKey: String, count: Int, rates: [Double]) -> Double {
    let figure = median(rates)
    print(
        "\(text): \(rates.count) rounds of \(count), median \(Int(figure))/s (rounds \(roundsText(rates)))")
    report(name, [countKey: Double(count * rates.count), "rounds": Double(rates.count), "perSecond": figure])
    return figure
}

/// A count that threads add to.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() { lock.withLock { count += 1 } }

    var value: Int { lock.withLock { count } }
}

/// Writes `count` pending jobs into a fresh journal in `directory` through the store alone: as many synced
/// submits would take minutes.
func fillJournal(_ directory: String, count: Int, kind: String = "work") throws {
    let filling = try FileJobStore(
        directory: directory, configuration: .init(durability: .batched(window: .seconds(1))))
    let encoder = JSONEncoder()
    let now = Date()
    for index in 0..<count {
        let payload = try encoder.encode(Payload(photo: index, path: "/photos/\(index).heic"))
        try filling.append(
            .submitted(
                StoredJob(
                    sequence: UInt64(index + 1), id: "job-\(index)", kind: kind, payload: payload, submittedAt: now,
                    options: SyncJobOptions(serialGroup: index % 10 == 0 ? "serial" : nil, tags: ["bench"]))))
    }
    try filling.close()
}

/// The floor under a crash-safe submit, in two in-run references: `FileJobStore.append` of the same
/// submission records alone (no scheduler), and a bare `write(2)` per record of the journal's bytes per
/// record to a file beside it (what any store that survives a crash of its process pays per record
/// written with a system call). Returns the two rates.
func crashSafeFloor(count: Int) throws -> (append: Double, write: Double, bytesPerRecord: Int) {
    let directory = freshDirectory("append-crash-safe")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try FileJobStore(
        directory: directory, configuration: .init(durability: .batched(window: .milliseconds(100))))
    let now = Date()
    let jobs = (0..<count).map { index in
        StoredJob(
            sequence: UInt64(index + 1), id: "job-\(index)", kind: "work", payload: Data(encodedPayload(index)),
            submittedAt: now, options: SyncJobOptions())
    }
    let appendElapsed = try ContinuousClock().measure {
        for job in jobs { try store.append(.submitted(job)) }
    }
    let bytesPerRecord = store.statistics.bytes / count
    try store.close()
    let appendRate = Double(count) / seconds(appendElapsed)

    let path = directory + "/plain"
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    guard fd >= 0 else { fatalError("open \(path) failed") }
    let record = [UInt8](repeating: 0x2a, count: bytesPerRecord)
    let writeElapsed = ContinuousClock().measure {
        for _ in 0..<count {
            guard record.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytesPerRecord else {
                fatalError("write to \(path) failed")
            }
        }
    }
    close(fd)
    let writeRate = Double(count) / seconds(writeElapsed)
    print(
        "crash-safe floor: FileJobStore.append alone \(Int(appendRate)) appends/s; write(2) of \(bytesPerRecord) "
            + "bytes \(Int(writeRate)) writes/s")
    report("durable-append-crash-safe", ["records": Double(count), "perSecond": appendRate])
    report(
        "write-syscall-reference", ["records": Double(count), "bytes": Double(bytesPerRecord), "perSecond": writeRate])
    return (appendRate, writeRate, bytesPerRecord)
}

/// The scheduler's own cost under every durable figure, in two in-run references on a plain
/// `SyncScheduler` with the same never-met requirement, ids and options as the durable jobs:
/// `count` submits one at a time (the floor under a crash-safe submit), and `restoreCount` jobs entered
/// by one `submit(contentsOf:)` and by as many `submit(_:)` calls (the floor under a restore's entry into
/// the scheduler). Returns submits per second and the two entry times in seconds.
func schedulerFloor(count: Int, restoreCount: Int) throws -> (
    perSecond: Double, batchSeconds: Double, oneByOneSeconds: Double
) {
    func jobs(_ count: Int, prefix: String) -> [SyncJob] {
        (0..<count).map { index in
            SyncJob(
                id: "\(prefix)-\(index)",
                options: SyncJobOptions(serialGroup: index % 10 == 0 ? "serial" : nil, tags: ["bench"])
            ) { _ in }
        }
    }
    func scheduler() -> SyncScheduler {
        SyncScheduler(environment: SyncEnvironment(connectivity: NeverConnected()))
    }
    let clock = ContinuousClock()
    let single = scheduler()
    let singles = jobs(count, prefix: "submit")
    let submitElapsed = try clock.measure { for job in singles { try single.submit(job) } }
    let batched = jobs(restoreCount, prefix: "batch")
    let batchScheduler = scheduler()
    let batchElapsed = try clock.measure { try batchScheduler.submit(contentsOf: batched) }
    let oneByOne = jobs(restoreCount, prefix: "one")
    let oneByOneScheduler = scheduler()
    let oneByOneElapsed = try clock.measure { for job in oneByOne { try oneByOneScheduler.submit(job) } }
    let rate = Double(count) / seconds(submitElapsed)
    print(
        "scheduler floor: SyncScheduler.submit alone \(Int(rate)) submits/s; \(restoreCount) jobs entered by "
            + "submit(contentsOf:) in \(batchElapsed), by submit(_:) one at a time in \(oneByOneElapsed)")
    report("scheduler-submit-reference", ["jobs": Double(count), "perSecond": rate])
    report(
        "scheduler-batch-reference",
        [
            "jobs": Double(restoreCount), "batchSeconds": seconds(batchElapsed),
            "oneByOneSeconds": seconds(oneByOneElapsed),
        ])
    return (rate, seconds(batchElapsed), seconds(oneByOneElapsed))
}

/// Fills a fresh journal with `stored` jobs of `kind`, restores them into a durable scheduler (syncs
/// batched a second apart, so that the figure is the submission's own cost), then submits `count` jobs:
/// the restore's report and time, and the submits per second.
func submitsAfterRestore(label: String, stored: Int, kind: String, count: Int) throws -> (
    report: DurableRestoreReport, restoreElapsed: Duration, perSecond: Double
) {
    let directory = freshDirectory(label)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try fillJournal(directory, count: stored, kind: kind)
    let store = try FileJobStore(directory: directory, configuration: .init(durability: .batched(window: .seconds(1))))
    let scheduler = try makeScheduler(store: store)
    let clock = ContinuousClock()
    var restoreReport: DurableRestoreReport?
    let restoreElapsed = try clock.measure { restoreReport = try scheduler.restoreJobs() }
    let elapsed = try clock.measure {
        for index in 0..<count {
            try scheduler.submit(
                DurableJob(kind: "work", payload: Payload(photo: index, path: "/photos/new-\(index).heic")))
        }
    }
    try store.close()
    return (restoreReport!, restoreElapsed, Double(count) / seconds(elapsed))
}

/// Submits per second with each of `sizes` durable jobs already queued (restored from the journal into a
/// scheduler of its own), in `rounds` rounds of `count / rounds` submits that visit the sizes in turn, the
/// first size of each round rotating; each size's figure is the median of its rounds. Timed one size after
/// another, the first ran on a colder heap than the rest and read up to 1.5× slower whatever its size.
@discardableResult
func submitVersusPending(sizes: [Int], count: Int, rounds: Int = 5) throws -> [Double] {
    var setups: [(directory: String, store: FileJobStore, scheduler: DurableScheduler, restored: Int)] = []
    defer { for setup in setups { try? FileManager.default.removeItem(atPath: setup.directory) } }
    for pending in sizes {
        let directory = freshDirectory("pending-\(pending)")
        try fillJournal(directory, count: pending, kind: "work")
        let store = try FileJobStore(
            directory: directory, configuration: .init(durability: .batched(window: .seconds(1))))
        let scheduler = try makeScheduler(store: store)
        let restored = try scheduler.restoreJobs().restored.count
        setups.append((directory, store, scheduler, restored))
    }
    let perRound = max(1, count / rounds)
    var rates = Array(repeating: [Double](), count: sizes.count)
    let clock = ContinuousClock()
    for round in 0..<rounds {
        for step in 0..<sizes.count {
            let which = (round + step) % sizes.count
            let scheduler = setups[which].scheduler
            let elapsed = try clock.measure {
                for index in 0..<perRound {
                    try scheduler.submit(
                        DurableJob(
                            kind: "work", payload: Payload(photo: index, path: "/photos/new-\(round)-\(index).heic")))
                }
            }
            rates[which].append(Double(perRound) / seconds(elapsed))
        }
    }
    var medians: [Double] = []
    for (which, setup) in setups.enumerated() {
        try setup.store.close()
        let figure = median(rates[which])
        print(
            "durable submit with \(setup.restored) pending: \(rounds) rounds of \(perRound) jobs, median "
                + "\(Int(figure)) submits/s (rounds \(roundsText(rates[which])))")
        report(
            "durable-submit-vs-pending",
            [
                "pending": Double(setup.restored), "jobs": Double(perRound * rounds), "perSecond": figure,
                "rounds": Double(rounds),
            ])
        medians.append(figure)
    }
    return medians
}

/// Submits per second with `kept` stored jobs of a kind that is not registered, so the restore keeps them
/// in the store (each holds its id, which every submit is checked against), and the restore's time.
func submitVersusKept(kept: Int, count: Int) throws {
    let run = try submitsAfterRestore(label: "kept-\(kept)", stored: kept, kind: "unregistered", count: count)
    let keptCount = run.report.kept.count
    print(
        "durable submit with \(keptCount) kept: restore \(run.restoreElapsed), \(count) jobs, "
            + "\(Int(run.perSecond)) submits/s")
    report(
        "durable-submit-vs-kept",
        [
            "kept": Double(keptCount), "jobs": Double(count), "perSecond": run.perSecond,
            "restoreSeconds": seconds(run.restoreElapsed),
        ])
}

/// Restores `count` pending jobs (open the store, then `restoreJobs()`); returns the total seconds.
func restoreTime(count: Int) async throws -> Double {
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
    return seconds(openElapsed + restoreElapsed)
}

/// Runs this program again in a fresh process with `arguments` (one `--figure`), so that a figure that
/// allocates hundreds of megabytes starts from a heap of its own, as an app's launch does, instead of
/// reusing what earlier figures freed; forwards the child's output and returns its JSON lines' numeric
/// fields by benchmark name.
func inChildProcess(_ arguments: [String]) throws -> [String: [String: Double]] {
    let process = Process()
    process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { fatalError("\(arguments) exited with \(process.terminationStatus)") }
    var figures: [String: [String: Double]] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
        print(line)
        guard line.hasPrefix("{"),
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let name = object["benchmark"] as? String
        else { continue }
        figures[name] = object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }
    return figures
}

let submits = argument("--submits", default: 2000)
let restoreCount = argument("--restore", default: 100_000)

// A figure measured on its own, in the process the main run started for it.
if let flag = CommandLine.arguments.firstIndex(of: "--figure"), flag + 1 < CommandLine.arguments.count {
    switch CommandLine.arguments[flag + 1] {
    case "restore": _ = try await restoreTime(count: restoreCount)
    case "scheduler-floor": _ = try schedulerFloor(count: submits * 25, restoreCount: restoreCount)
    case "crash-safe":
        // Alone, for profiling; the main run measures it in its own sequence.
        try submitThroughput(label: "crash-safe", durability: .batched(window: .milliseconds(100)), count: submits * 25)
    case "group-commit":
        // Alone, for profiling; the main run measures it in its own sequence.
        try await suspendingSubmitThroughput(label: "group-commit", count: submits * 8, submitters: 16)
    case let other: fatalError("unknown figure \(other)")
    }
    exit(0)
}

// Each goal's figure and its SQLite anchor are timed in alternating rounds; a ratio is the median of the
// rounds' ratios.
let figureRounds = 5
let syncedRounds = try await interleaved(rounds: figureRounds) {
    try submitThroughput(label: "synced", durability: .synchronous, count: submits / figureRounds, reporting: false)
} anchor: {
    sqliteInsertThroughput(label: "wal-full", synchronous: "FULL", count: submits / figureRounds, reporting: false)
}
reportRounds(
    "sqlite-wal-full", "sqlite insert, WAL, synchronous=FULL", countKey: "rows", count: submits / figureRounds,
    rates: syncedRounds.anchor)
let synced = reportRounds(
    "durable-submit-synced", "durable submit, synced, 1 submitter", countKey: "jobs", count: submits / figureRounds,
    rates: syncedRounds.subject)
let crashSafeRounds = try await interleaved(rounds: figureRounds) {
    try submitThroughput(
        label: "crash-safe", durability: .batched(window: .milliseconds(100)), count: submits * 25 / figureRounds,
        reporting: false)
} anchor: {
    sqliteInsertThroughput(
        label: "wal-normal", synchronous: "NORMAL", count: submits * 25 / figureRounds, reporting: false)
}
let walNormal = reportRounds(
    "sqlite-wal-normal", "sqlite insert, WAL, synchronous=NORMAL", countKey: "rows",
    count: submits * 25 / figureRounds, rates: crashSafeRounds.anchor)
reportRounds(
    "durable-submit-crash-safe", "durable submit, crash-safe, 1 submitter", countKey: "jobs",
    count: submits * 25 / figureRounds, rates: crashSafeRounds.subject)
let sqliteRead = sqliteReadPending(count: restoreCount)
let floor = try crashSafeFloor(count: submits * 25)
// The group commit's figures and the least group commit (its reference) in 3 alternating rounds, the first
// of each pair alternating; each figure is the median of its rounds.
let groupRounds = 3
let (groupCommitRounds, groupFloorRounds) = try await interleaved(rounds: groupRounds) {
    (
        threads: try submitThroughput(
            label: "group-commit-threads", durability: .synchronous, count: submits * 8, submitters: 16,
            reporting: false),
        oneTask: try await suspendingSubmitThroughput(
            label: "one-task", count: submits / 2, submitters: 1, reporting: false),
        tasks: try await suspendingSubmitThroughput(
            label: "group-commit", count: submits * 8, submitters: 16, reporting: false)
    )
} anchor: {
    await groupCommitReference(count: submits * 8, submitters: 16, bytesPerRecord: floor.bytesPerRecord)
}
let groupCommitThreads = reportRounds(
    "durable-submit-group-commit-threads", "durable submit, group commit, 16 blocking threads", countKey: "jobs",
    count: submits * 8, rates: groupCommitRounds.map(\.threads))
let oneTask = reportRounds(
    "durable-submit-one-task", "durable submitWithoutBlocking, 1 task", countKey: "jobs", count: submits / 2,
    rates: groupCommitRounds.map(\.oneTask))
let groupCommit = reportRounds(
    "durable-submit-group-commit", "durable submitWithoutBlocking, group commit, 16 tasks", countKey: "jobs",
    count: submits * 8, rates: groupCommitRounds.map(\.tasks))
let groupFloor = (threads: median(groupFloorRounds.map(\.threads)), tasks: median(groupFloorRounds.map(\.tasks)))
report(
    "group-commit-reference",
    ["submitters": 16, "rounds": Double(groupRounds), "threadRatio": groupFloor.threads, "taskRatio": groupFloor.tasks])
let versusPending = try submitVersusPending(sizes: [100, 10_000, restoreCount], count: submits)
try submitVersusKept(kept: 10_000, count: submits)
let sizes = ["--submits", "\(submits)", "--restore", "\(restoreCount)"]
let restore = try inChildProcess(["--figure", "restore"] + sizes)["durable-restore"]?["totalSeconds"] ?? .nan
let floorFigures = try inChildProcess(["--figure", "scheduler-floor"] + sizes)
let scheduling = (
    perSecond: floorFigures["scheduler-submit-reference"]?["perSecond"] ?? .nan,
    batchSeconds: floorFigures["scheduler-batch-reference"]?["batchSeconds"] ?? .nan,
    oneByOneSeconds: floorFigures["scheduler-batch-reference"]?["oneByOneSeconds"] ?? .nan
)

func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }
print("goals (this run):")
let syncedRatio = median(zip(syncedRounds.subject, syncedRounds.anchor).map { $0 / $1 })
let crashSafeRatio = median(zip(crashSafeRounds.subject, crashSafeRounds.anchor).map { $0 / $1 })
print("  synced ÷ sqlite-wal-full         \(ratio(syncedRatio)) (median of the rounds' ratios; goal ≥ 1.0×)")
print(
    "  group-commit ÷ synced            \(ratio(groupCommit / synced)) (16 tasks by submitWithoutBlocking; goal ≥ 10×); "
        + "÷ one task \(ratio(groupCommit / oneTask)); 16 blocking threads ÷ synced \(ratio(groupCommitThreads / synced)); "
        + "the least group commit, 16 ÷ 1 submitter: threads \(ratio(groupFloor.threads)), tasks \(ratio(groupFloor.tasks))"
)
print(
    "  crash-safe ÷ sqlite-wal-normal   \(ratio(crashSafeRatio)) (median of the rounds' ratios; goal ≥ 5×); "
        + "the store's append alone "
        + "\(ratio(floor.append / walNormal)), a bare write(2) per record \(ratio(floor.write / walNormal)), "
        + "a plain SyncScheduler.submit alone \(ratio(scheduling.perSecond / walNormal))")
print(
    "  submits with 10², 10⁴, \(restoreCount) pending: fastest ÷ slowest "
        + "\(ratio((versusPending.max() ?? .nan) / (versusPending.min() ?? .nan))) (goal within 1.3×)")
print(
    "  restore \(String(format: "%.0f", restore * 1000)) ms, ÷ sqlite-read-pending \(ratio(restore / sqliteRead)) "
        + "(goal ≤ 150 ms and ≤ 1.0×)")
print(
    "  restore's floor in the scheduler: \(restoreCount) jobs by submit(contentsOf:) "
        + "\(String(format: "%.0f", scheduling.batchSeconds * 1000)) ms, by submit(_:) one at a time "
        + "\(String(format: "%.0f", scheduling.oneByOneSeconds * 1000)) ms")
