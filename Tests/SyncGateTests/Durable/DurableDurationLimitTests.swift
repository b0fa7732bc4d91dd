import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// Every duration option of a durable job is at most ``DurableScheduler/maximumDuration``: a longer one
/// is refused at submit, naming the field and the value, and nothing is stored. The journal's writer
/// never traps on a duration, however long: it writes one beyond what the journal holds at its bound.
@Suite("Durable duration limits", .timeLimit(.minutes(1)))
struct DurableDurationLimitTests {
    let directory = TemporaryDirectory()

    static let tooLong = DurableScheduler.maximumDuration + .seconds(1)
    static let farTooLong = Duration.seconds(Int64.max) * 2

    /// A duration option set to `value`, with what the rest of the job needs to be valid.
    static let fields: [(String, @Sendable (inout SyncJobOptions, Duration) -> Void)] = [
        ("delay", { $0.delay = $1 }),
        ("startDeadline", { $0.startDeadline = $1 }),
        ("runTimeout", { $0.runTimeout = $1 }),
        ("retry.delay", { $0.retry = .fixed(delay: $1, maxAttempts: 2) }),
        ("retry.initial", { $0.retry = .exponential(initial: $1, maxDelay: $1) }),
        ("retry.maxDelay", { $0.retry = .exponential(initial: .seconds(1), maxDelay: $1) }),
        ("period.interval", { $0.period = SyncJobPeriod(every: $1, flex: .seconds(1)) }),
        ("period.flex", { $0.period = SyncJobPeriod(every: .seconds(60), flex: $1) }),
        ("calendar.window", { $0.calendar = .daily(hour: 2, minute: 0, window: $1) }),
        (
            "calendar.randomizedDelay",
            { $0.calendar = SyncCalendarSchedule(hours: [2], minutes: [0], window: .seconds(60), randomizedDelay: $1) }
        ),
        (
            "relaxations",
            { options, value in
                options.requirements = [.network, .unmetered]
                options.relaxations = [.drop(.unmetered, after: value)]
            }
        ),
        ("fileTrigger.quietPeriod", { $0.fileTrigger = SyncFileTrigger(paths: ["/tmp"], quietPeriod: $1) }),
    ]

    static let cases = fields.flatMap { field in [tooLong, farTooLong].map { (field.0, field.1, $0) } }

    @Test("the durable range check names every duration option beyond the limit, and its value", arguments: cases)
    func rangeCheckNamesTheField(
        field: String, set: @Sendable (inout SyncJobOptions, Duration) -> Void, value: Duration
    ) {
        var options = SyncJobOptions()
        set(&options, value)
        let refused = DurableSchedulerStateMachine.rangeError(options)
        #expect(refused?.field == field)
        #expect(refused?.value == "\(value)")
        #expect(
            refused?.reason
                == "\(field) must be at most \(DurableScheduler.maximumDuration) (100 years) in a durable job, got \(value)"
        )
    }

    /// A flex or randomized delay beyond the limit is longer than its period or window, which the scheduler
    /// refuses first, naming the same field.
    @Test("a duration option beyond the limit is refused at submit, naming the field and the value", arguments: cases)
    func refusedAtSubmit(
        field: String, set: @Sendable (inout SyncJobOptions, Duration) -> Void, value: Duration
    ) async throws {
        let (scheduler, store, durable) = try restoredWorkScheduler(in: directory.path)
        var options = SyncJobOptions()
        set(&options, value)
        let job = DurableJob(id: "long", kind: "work", payload: [String: Int](), options: options)
        let error = #expect(throws: DurableJobError.self) { try durable.submit(job) }
        let refused = refusal(of: error)
        #expect(refused?.field == field)
        #expect(refused?.value == "\(value)")
        #expect(try store.load().jobs.isEmpty)
        await scheduler.shutdown(gracePeriod: .zero)
        try store.close()
    }

    @Test(
        "the journal writes a duration beyond what it holds at its bound, and reads back what it wrote",
        arguments: [
            (farTooLong, .seconds(Int64.max)),
            (.zero - farTooLong, .seconds(-Int64.max)),
            (.seconds(Int64.max) + .milliseconds(500), .seconds(Int64.max)),
            (.seconds(Int64.max), .seconds(Int64.max)),
            (.seconds(-Int64.max), .seconds(-Int64.max)),
            (.milliseconds(-1_500), .milliseconds(-1_500)),
            (.nanoseconds(1), .nanoseconds(1)),
        ] as [(Duration, Duration)])
    func writerClampsDurations(written: Duration, read: Duration) throws {
        var writer = JournalWriter()
        writer.duration(written)
        let decoded = try writer.bytes.withUnsafeBytes { bytes in
            var reader = JournalReader(bytes)
            return try reader.duration()
        }
        #expect(decoded == read)
    }

    @Test("a stored job whose quiet period is beyond what the journal holds is written, not a trap")
    func storeWritesAFarTooLongQuietPeriod() throws {
        var options = SyncJobOptions()
        options.fileTrigger = SyncFileTrigger(paths: ["/tmp"], quietPeriod: Self.farTooLong)
        let store = try FileJobStore(directory: directory.path)
        try store.append(.submitted(plainJob(1, options: options)))
        try store.close()
        let reopened = try FileJobStore(directory: directory.path)
        let contents = try reopened.load()
        #expect(contents.issues.isEmpty)
        #expect(contents.jobs.first?.options.fileTrigger?.quietPeriod == .seconds(Int64.max))
        try reopened.close()
    }
}

/// A durable job's names (id, unique key, serial group, tags, conditions, dependencies, file-trigger
/// paths, allowed networks) take at most ``DurableScheduler.maximumNamesSize`` together: more is refused at
/// submit, naming the field that takes the most and its size, and nothing is stored. Before, a 70 MiB id
/// was refused by the store with its record-size error, which named no field.
@Suite("Durable name limits", .timeLimit(.minutes(1)))
struct DurableNameLimitTests {
    let directory = TemporaryDirectory()

    /// A job whose `field` alone takes more than the limit: its id and options, and the size the refusal
    /// names. (Built in the test, so that the test's arguments, which the runner prints, stay short.)
    static func job(tooLong field: String) -> (id: String, options: SyncJobOptions, bytes: Int) {
        let long = String(repeating: "x", count: DurableScheduler.maximumNamesSize)
        var options = SyncJobOptions()
        switch field {
        case "id": return (long, options, long.utf8.count + 8)
        case "uniqueKey": options.uniqueKey = long
        case "serialGroup": options.serialGroup = long
        case "tags":
            options.tags = Set((0..<70_000).map { "tag\($0)" })
            return ("t", options, options.tags.reduce(0) { $0 + $1.utf8.count + 8 })
        case "conditions": options.conditions = [SyncCondition(long)]
        default:
            options.fileTrigger = SyncFileTrigger(paths: ["/" + long], quietPeriod: .seconds(1))
            return ("f", options, long.utf8.count + 9)
        }
        return ("j", options, long.utf8.count + 8)
    }

    @Test(
        "names beyond the limit are refused at submit, naming the largest field and its size",
        arguments: ["id", "uniqueKey", "serialGroup", "tags", "conditions", "fileTrigger.paths"])
    func refusedAtSubmit(field: String) async throws {
        let (id, options, bytes) = Self.job(tooLong: field)
        let (scheduler, store, durable) = try restoredWorkScheduler(in: directory.path)
        try durable.submit(DurableJob(id: "kept", kind: "work", payload: [String: Int]()))
        let job = DurableJob(id: id, kind: "work", payload: [String: Int](), options: options)
        let error = #expect(throws: DurableJobError.self) { try durable.submit(job) }
        guard case .rejected(.invalidJob(let refused)) = error else {
            Issue.record("not refused as an invalid job: \(String(describing: error))")
            return
        }
        #expect(refused.field == field)
        #expect(refused.value == "\(bytes) bytes")
        #expect(refused.reason.hasPrefix("\(field) takes \(bytes) bytes: a durable job's names"))
        #expect(refused.reason.count < 400)
        #expect(try store.load().jobs.map(\.id) == ["kept"])
        await scheduler.shutdown(gracePeriod: .zero)
        try store.close()
    }

    @Test("names just within the limit are stored and read back")
    func namesWithinTheLimitAreStored() async throws {
        let (scheduler, store, durable) = try restoredWorkScheduler(in: directory.path)
        let id = String(repeating: "i", count: DurableScheduler.maximumNamesSize / 2 - 8)
        var options = SyncJobOptions()
        options.uniqueKey = String(repeating: "k", count: DurableScheduler.maximumNamesSize / 2 - 8)
        try durable.submit(DurableJob(id: id, kind: "work", payload: [String: Int](), options: options))
        await scheduler.shutdown(gracePeriod: .zero)
        try store.close()
        let reopened = try FileJobStore(directory: directory.path)
        let contents = try reopened.load()
        #expect(contents.issues.isEmpty)
        #expect(contents.jobs.map(\.id) == [id])
        #expect(contents.jobs.first?.options.uniqueKey == options.uniqueKey)
        try reopened.close()
    }
}

/// A durable scheduler on a new store in `directory` with kind `work` registered and its jobs restored.
private func restoredWorkScheduler(in directory: String) throws -> (SyncScheduler, FileJobStore, DurableScheduler) {
    let clock = ManualClock()
    let manual = ManualSyncEnvironment(clock: clock)
    let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
    let store = try FileJobStore(directory: directory)
    let durable = DurableScheduler(scheduler: scheduler, store: store)
    try durable.register("work", payload: [String: Int].self) { _, _ in }
    try durable.restoreJobs()
    return (scheduler, store, durable)
}
