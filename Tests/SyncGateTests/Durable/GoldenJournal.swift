import Foundation

@testable import SyncGateCore
@testable import SyncGateDurable

/// The golden journal files in `Golden/`: bytes written by a released version of the journal format,
/// checked in so that every later version of the code is tested against what users already have on disk.
///
/// The files are written by ``writeFiles()``, which no test runs. To pin a new format version, run
/// `SYNCGATE_WRITE_GOLDEN_JOURNALS=1 swift test --filter GoldenJournalGenerator` once and commit the new
/// `v<N>-*.journal` files; never regenerate the files of an older version (they stand for journals
/// written by code that no longer exists).
enum GoldenJournal {
    /// The folder of the golden files, found from this source file.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// The path of a golden file, such as `v1-records.journal`.
    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    static let submittedAt = Date(timeIntervalSince1970: 1_700_000_000.25)
    static let retryAt = Date(timeIntervalSince1970: 1_700_000_100.5)

    /// The records of `v1-records.journal`, in file order: every record type, every resolution, every
    /// retry shape, every priority, each duration option set and unset, a unique key with each duplicate
    /// policy, a serial group, tags, conditions, and a job of a kind no test registers (it is kept).
    static let records: [JobRecord] =
        [
            // 1: every option at its default.
            .submitted(
                StoredJob(
                    sequence: 1, id: "plain-1", kind: "work", payload: Data("{}".utf8), submittedAt: submittedAt)),
            // 2: every option changed, with progress, as compaction writes a job.
            .submitted(fullyOptioned),
            // 3: a fixed retry, low priority, no requirement, a run timeout, a unique key kept on duplicate.
            .submitted(
                StoredJob(
                    sequence: 3, id: "fixed-3", kind: "work", payload: Data("{\"n\":3}".utf8), submittedAt: submittedAt,
                    options: SyncJobOptions(
                        requires: [], priority: .low, runTimeout: .seconds(30),
                        retry: .fixed(delay: .seconds(5), maxAttempts: 3), uniqueKey: "refresh",
                        onDuplicate: .keepExisting))),
            // 4: no retry spelled out, normal priority, a start deadline only.
            .submitted(
                StoredJob(
                    sequence: 4, id: "deadline-4", kind: "work", payload: Data("{\"n\":4}".utf8),
                    submittedAt: submittedAt,
                    options: SyncJobOptions(
                        requires: .syncReady, priority: .normal, startDeadline: .seconds(3600), retry: .none))),
            // 5: a kind that no test registers: restore keeps it in the store.
            .submitted(
                StoredJob(
                    sequence: 5, id: "retired-5", kind: "retired-kind", payload: Data("[1,2,3]".utf8),
                    submittedAt: submittedAt, options: SyncJobOptions(tags: ["legacy"]))),
            // 6 to 10: resolved, one per resolution.
        ]
        + (6...10).map { sequence in
            .submitted(
                StoredJob(
                    sequence: UInt64(sequence), id: "done-\(sequence)", kind: "work", payload: Data("{}".utf8),
                    submittedAt: submittedAt))
        }
        + [
            // 3 fails its first attempt and starts its second (it was running when the file ended).
            .attemptStarted(sequence: 3, attempt: 1),
            .attemptFinished(sequence: 3, failures: 1, retryAt: retryAt),
            .attemptStarted(sequence: 3, attempt: 2),
            // 4 starts and is requeued (requirements lost): no failure, no backoff.
            .attemptStarted(sequence: 4, attempt: 1),
            .attemptFinished(sequence: 4, failures: 0, retryAt: nil),
        ]
        + zip(6...10, JobRecord.Resolution.allCases).map { sequence, resolution in
            .resolved(sequence: UInt64(sequence), resolution: resolution)
        }

    /// Job 2: every option other than its default, and progress fields set.
    static var fullyOptioned: StoredJob {
        var job = StoredJob(
            sequence: 2, id: "upload-2", kind: "upload", payload: Data("{\"photo\":42}".utf8),
            submittedAt: submittedAt,
            options: SyncJobOptions(
                requires: .largeTransfer, conditions: ["photos-selected", "db-migrated"], priority: .high,
                delay: .seconds(10), startDeadline: .seconds(600), runTimeout: .milliseconds(1500),
                retry: .exponential(
                    initial: .seconds(2), multiplier: 3, maxDelay: .seconds(60), maxAttempts: 4, jitter: 0.25,
                    resetWhenRequirementsReturn: true),
                onRequirementsLost: .keepRunning, uniqueKey: "photo-42", onDuplicate: .replace,
                serialGroup: "uploads", tags: ["photos", "user"]))
        job.failures = 2
        job.lastStartedAttempt = 3
        job.isRunning = true
        job.retryAt = retryAt
        return job
    }

    /// The records of `v2-records.journal`: those of version 1, then what version 2 added: a periodic
    /// job whose series ended periods (as compaction writes it), its `periodEnded` record, and jobs with
    /// dependencies and each append policy.
    static let version2Records: [JobRecord] =
        records + [
            // 11: a periodic job, as compaction writes it after some periods.
            .submitted(periodic),
            // 12: dependencies, appended to the unique key's last job.
            .submitted(
                StoredJob(
                    sequence: 12, id: "chained-12", kind: "work", payload: Data("{\"n\":12}".utf8),
                    submittedAt: submittedAt,
                    options: SyncJobOptions(
                        uniqueKey: "chain", onDuplicate: .append, dependsOn: ["plain-1", "upload-2"]))),
            // 13: appended whatever the last job's outcome.
            .submitted(
                StoredJob(
                    sequence: 13, id: "appended-13", kind: "work", payload: Data("{}".utf8), submittedAt: submittedAt,
                    options: SyncJobOptions(uniqueKey: "chain", onDuplicate: .appendOrReplace))),
            // 11 runs a period, which ends.
            .attemptStarted(sequence: 11, attempt: 1),
            .periodEnded(
                sequence: 11, anchor: retryAt, periods: SyncJobInfo.Periods(succeeded: 4, failed: 1, skipped: 3)),
        ]

    /// The records of `v3-records.journal`: those of version 2, then what version 3 added: a dependent
    /// with dependency results (as compaction writes it) and `dependencyEnded` records, one with an
    /// output, one passing on a failure from further up the chain.
    static let version3Records: [JobRecord] =
        version2Records + [
            // 14: depends on 12 and 13, one of which ended, as compaction writes it.
            .submitted(dependent),
            // 12's dependency plain-1 succeeded with an output; upload-2 failed, passing on 0's failure.
            .dependencyEnded(sequence: 12, result: StoredJob.DependencyResult(id: "plain-1", resolution: .succeeded)),
            .dependencyEnded(
                sequence: 12,
                result: StoredJob.DependencyResult(
                    id: "upload-2", resolution: .cancelled, ancestor: "root-0", detail: "")),
            .dependencyEnded(
                sequence: 14,
                result: StoredJob.DependencyResult(
                    id: "appended-13", resolution: .succeeded, output: Data("{\"photos\":[1,2]}".utf8))),
        ]

    /// The records of `v4-records.journal`: those of version 3, then what version 4 added: a job with a
    /// last stop reason (as compaction writes it), and an `attemptStopped` record of every reason.
    static let version4Records: [JobRecord] =
        version3Records + [
            // 15: requeued after a loss of requirements and conditions, as compaction writes it.
            .submitted(stopped),
            .attemptStarted(sequence: 15, attempt: 1),
            .attemptStopped(sequence: 15, reason: .timedOut),
            .attemptStopped(sequence: 15, reason: .cancelled),
            .attemptStopped(sequence: 15, reason: .replaced),
            .attemptStopped(sequence: 15, reason: .shutdown),
            .attemptStopped(sequence: 15, reason: .requirementsLost(.network, conditions: [])),
        ]

    /// The records of `v5-records.journal`: those of version 4, then what version 5 added: jobs with
    /// relaxations of every shape (a requirement dropped, one replaced, a condition dropped), one-off and
    /// periodic, one of them with progress as compaction writes it; calendar jobs (one with every
    /// calendar field set and a relaxation, as compaction writes it after some occurrences; one with the
    /// defaults) and a calendar job's `periodEnded` record.
    static let version5Records: [JobRecord] =
        version4Records + [
            .submitted(relaxed),
            .submitted(relaxedPeriodic),
            .attemptStarted(sequence: 17, attempt: 1),
            .submitted(calendarFull),
            .submitted(
                StoredJob(
                    sequence: 19, id: "nightly-19", kind: "work", payload: Data("{}".utf8), submittedAt: submittedAt,
                    options: SyncJobOptions(requires: .none, tags: ["calendar"])
                        .withCalendar(.daily(hour: 2, minute: 0, window: .seconds(3600))))),
            .attemptStarted(sequence: 18, attempt: 1),
            .periodEnded(
                sequence: 18, anchor: Date(timeIntervalSince1970: 1_700_028_000),
                periods: SyncJobInfo.Periods(succeeded: 2, failed: 0, skipped: 1)),
        ]

    /// The records of `v6-records.journal`: those of version 5, then what version 6 added: a job with
    /// allowed networks of every matcher kind (a value with a comma among them), and a calendar job with a list after its calendar fields.
    static let version6Records: [JobRecord] =
        version5Records + [
            .submitted(networked),
            .submitted(networkedCalendar),
        ]

    /// Job 20: allowed only on listed networks, one matcher of each kind.
    static var networked: StoredJob {
        var options = SyncJobOptions(requires: [.network, .unmetered], tags: ["networks"])
        options.allowedNetworks = SyncNetworkAllowlist([
            .interface("wl*"), .interfaceType(.wiredEthernet), .connection("Office, 2nd floor"), .ssid("Home"),
        ])
        return StoredJob(
            sequence: 20, id: "home-20", kind: "work", payload: Data("{}".utf8), submittedAt: submittedAt,
            options: options)
    }

    /// Job 21: a calendar job allowed only on one SSID: its list follows the calendar fields.
    static var networkedCalendar: StoredJob {
        var options = SyncJobOptions(requires: .none).withCalendar(.daily(hour: 3, minute: 0, window: .seconds(600)))
        options.allowedNetworks = SyncNetworkAllowlist([.ssid("Café")])
        return StoredJob(
            sequence: 21, id: "nightly-21", kind: "work", payload: Data("{}".utf8), submittedAt: submittedAt,
            options: options)
    }

    /// Job 18: a calendar job with every calendar field set, a relaxation, and a series under way.
    static var calendarFull: StoredJob {
        var job = StoredJob(
            sequence: 18, id: "backup-18", kind: "work", payload: Data("{}".utf8), submittedAt: submittedAt,
            options: SyncJobOptions(
                requires: [.unmetered, .externalPower], relaxations: [.drop(.unmetered, after: .seconds(1_800))]
            )
            .withCalendar(
                SyncCalendarSchedule(
                    weekdays: [.monday, .thursday], hours: [2, 18], minutes: [0, 30], seconds: [15],
                    timeZone: TimeZone(identifier: "Europe/Berlin"), window: .seconds(5400),
                    randomizedDelay: .milliseconds(600_250), catchUp: .skip)))
        job.periodAnchor = Date(timeIntervalSince1970: 1_700_020_800)
        job.periods = SyncJobInfo.Periods(succeeded: 1, failed: 1, skipped: 4)
        return job
    }

    /// Job 16: a backup that drops `unmetered` after three days and trades external power for a battery
    /// that is not low after twelve hours, whose first attempt failed.
    static var relaxed: StoredJob {
        var job = StoredJob(
            sequence: 16, id: "backup-16", kind: "work", payload: Data("{}".utf8), submittedAt: submittedAt,
            options: SyncJobOptions(
                requires: [.network, .unmetered, .externalPower], conditions: ["on-campus"],
                relaxations: [
                    .drop(.unmetered, after: .seconds(3 * 86_400)),
                    .replace(.externalPower, with: .batteryNotLow, after: .seconds(12 * 3_600)),
                    .drop(SyncCondition("on-campus"), after: .milliseconds(1_500)),
                ]))
        job.failures = 1
        job.lastStartedAttempt = 1
        job.retryAt = retryAt
        return job
    }

    /// Job 17: a periodic job whose `unmetered` is replaced by `network` an hour into each window.
    static var relaxedPeriodic: StoredJob {
        StoredJob(
            sequence: 17, id: "daily-17", kind: "work", payload: Data("{}".utf8), submittedAt: submittedAt,
            options: SyncJobOptions(
                requires: .unmetered, period: SyncJobPeriod(every: .seconds(86_400), flex: .seconds(7_200)),
                relaxations: [.replace(.unmetered, with: .network, after: .seconds(3_600))]))
    }

    /// Job 15: a job whose attempt was stopped by a loss of requirements and conditions.
    static var stopped: StoredJob {
        var job = StoredJob(
            sequence: 15, id: "stopped-15", kind: "work", payload: Data("{}".utf8), submittedAt: submittedAt,
            options: SyncJobOptions(requires: [.network, .unmetered], conditions: ["db-ready", "signed-in"]))
        job.lastStartedAttempt = 1
        job.lastStopReason = .requirementsLost([.network, .unmetered], conditions: ["db-ready", "signed-in"])
        return job
    }

    /// Job 14: a dependent, one of whose dependencies ended.
    static var dependent: StoredJob {
        var job = StoredJob(
            sequence: 14, id: "dependent-14", kind: "work", payload: Data("{}".utf8), submittedAt: submittedAt,
            options: SyncJobOptions(dependsOn: ["chained-12", "appended-13"]))
        job.dependencyResults = [
            StoredJob.DependencyResult(
                id: "chained-12", resolution: .failed, output: nil, ancestor: nil, detail: "disk full")
        ]
        return job
    }

    /// Job 11: a periodic job with a series under way.
    static var periodic: StoredJob {
        var job = StoredJob(
            sequence: 11, id: "feed-11", kind: "work", payload: Data("{}".utf8), submittedAt: submittedAt,
            options: SyncJobOptions(
                requires: .unmetered, delay: .seconds(30),
                period: SyncJobPeriod(every: .seconds(3600), flex: .milliseconds(900_500))))
        job.periodAnchor = submittedAt.addingTimeInterval(7200)
        job.periods = SyncJobInfo.Periods(succeeded: 3, failed: 1, skipped: 2)
        return job
    }

    /// A file-triggered job (a directory and a file), as compaction writes it after some runs.
    static let fileTriggered: StoredJob = {
        var options = SyncJobOptions(requires: .largeTransfer, tags: ["files"])
        options.fileTrigger = SyncFileTrigger(paths: ["/srv/docs", "/srv/notes.txt"], quietPeriod: .seconds(5))
        var job = StoredJob(
            sequence: 22, id: "docs-22", kind: "work", payload: Data("{}".utf8), submittedAt: submittedAt,
            options: options)
        job.periodAnchor = Date(timeIntervalSince1970: 1_700_029_000)
        job.periods = SyncJobInfo.Periods(succeeded: 2, failed: 1, skipped: 0)
        return job
    }()

    /// The records of `v7-records.journal`: those of version 6, then what version 7 added: a
    /// file-triggered job, a run of it, and its `periodEnded` record (the anchor is the run's start).
    static let version7Records: [JobRecord] =
        version6Records + [
            .submitted(fileTriggered),
            .attemptStarted(sequence: 22, attempt: 1),
            .periodEnded(
                sequence: 22, anchor: Date(timeIntervalSince1970: 1_700_030_000),
                periods: SyncJobInfo.Periods(succeeded: 3, failed: 1, skipped: 0)),
        ]

    /// Job 23: a calendar job whose wall clock was set back before its span, as compaction writes it: it
    /// plans from where the clock was set back to and holds the span it had planned through.
    static let heldCalendar: StoredJob = {
        var job = StoredJob(
            sequence: 23, id: "nightly-23", kind: "work", payload: Data("{}".utf8), submittedAt: submittedAt,
            options: SyncJobOptions(requires: .network).withCalendar(
                .daily(hour: 23, minute: 0, window: .seconds(1800))))
        job.periodAnchor = Date(timeIntervalSince1970: 1_700_003_000)
        job.periods = SyncJobInfo.Periods(succeeded: 1, failed: 0, skipped: 0)
        job.calendarHeldSpan = Date(timeIntervalSince1970: 2_220_000_000)...Date(timeIntervalSince1970: 2_220_008_400)
        return job
    }()

    /// The records of `v8-records.journal`: those of version 7, then what version 8 added: a calendar job
    /// with a held span in its record, and a `calendarReplanned` record for job 19 (a series set back).
    static let version8Records: [JobRecord] =
        version7Records + [
            .submitted(heldCalendar),
            .calendarReplanned(
                sequence: 19, anchor: Date(timeIntervalSince1970: 1_700_004_000.5),
                periods: SyncJobInfo.Periods(succeeded: 4, failed: 1, skipped: 2),
                heldSpan: Date(timeIntervalSince1970: 2_000_000_000)...Date(timeIntervalSince1970: 2_000_086_400)),
        ]

    /// The records of the golden file of each version, by version.
    static func records(version: Int) -> [JobRecord] {
        switch version {
        case 1: records
        case 2: version2Records
        case 3: version3Records
        case 4: version4Records
        case 5: version5Records
        case 6: version6Records
        case 7: version7Records
        default: version8Records
        }
    }

    /// The records of `v1-torn-tail.journal`: two whole records, then the first 9 bytes of a third.
    static let tornTailRecords: [JobRecord] = [
        .submitted(
            StoredJob(sequence: 1, id: "kept-1", kind: "work", payload: Data("{}".utf8), submittedAt: submittedAt)),
        .attemptStarted(sequence: 1, attempt: 1),
    ]
    static let tornRecord = JobRecord.attemptFinished(sequence: 1, failures: 1, retryAt: retryAt)
    static let tornLength = 9

    /// Writes the golden files of the current format version into `Golden/`, through ``FileJobStore``.
    static func writeFiles() throws {
        let version = JournalCodec.currentVersion
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try write(records(version: version), to: "v\(version)-records.journal")
        let tornPath = try write(tornTailRecords + [tornRecord], to: "v\(version)-torn-tail.journal")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: tornPath))
        let tornFrameLength = JournalCodec.frame(tornRecord).count
        try bytes.dropLast(tornFrameLength - tornLength).write(to: URL(fileURLWithPath: tornPath))
    }

    /// Appends `records` to a new store and copies its journal to `Golden/<name>`; returns the path.
    @discardableResult
    private static func write(_ records: [JobRecord], to name: String) throws -> String {
        let scratch = TemporaryDirectory()
        let store = try FileJobStore(directory: scratch.path)
        for record in records { try store.append(record) }
        try store.close()
        let destination = path(name)
        try? FileManager.default.removeItem(atPath: destination)
        try FileManager.default.copyItem(atPath: scratch.journal, toPath: destination)
        return destination
    }
}

extension SyncJobOptions {
    /// The options with `calendar` set.
    func withCalendar(_ calendar: SyncCalendarSchedule) -> SyncJobOptions {
        var options = self
        options.calendar = calendar
        return options
    }
}
