import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// FileJobStore on real files in a temporary directory.
@Suite("FileJobStore", .timeLimit(.minutes(1)))
struct FileJobStoreTests {
    let directory = TemporaryDirectory()

    func open(_ configuration: FileJobStore.Configuration = .init()) throws -> FileJobStore {
        try FileJobStore(directory: directory.path, configuration: configuration)
    }

    @Test("records of every type are on disk and replayed by the next opener")
    func reopen() throws {
        let store = try open()
        try store.append(.submitted(fullyOptionedJob(sequence: 1)))
        try store.append(.submitted(plainJob(2)))
        try store.append(.submitted(plainJob(3)))
        try store.append(.attemptStarted(sequence: 2, attempt: 1))
        try store.append(.attemptFinished(sequence: 2, failures: 1, retryAt: Date(timeIntervalSince1970: 9)))
        try store.append(.attemptStarted(sequence: 2, attempt: 2))
        try store.append(.resolved(sequence: 3, resolution: .succeeded))
        try store.close()

        let reopened = try open()
        let contents = try reopened.load()
        #expect(contents.issues.isEmpty)
        #expect(contents.highestSequence == 3)
        #expect(contents.jobs.map(\.sequence) == [1, 2])
        #expect(contents.jobs[0] == fullyOptionedJob(sequence: 1))
        let second = contents.jobs[1]
        #expect(second.failures == 1)
        #expect(second.lastStartedAttempt == 2)
        #expect(second.isRunning)
        #expect(second.retryAt == Date(timeIntervalSince1970: 9))
    }

    @Test("a torn tail is cut from the file and reported; appends continue after the good records")
    func tornTail() throws {
        let store = try open()
        try store.append(.submitted(plainJob(1)))
        try store.append(.submitted(plainJob(2)))
        try store.close()
        let bytes = try directory.bytes(of: directory.journal)
        try directory.write(Array(bytes.dropLast(5)), to: directory.journal)

        let reopened = try open()
        let contents = try reopened.load()
        #expect(contents.jobs.map(\.sequence) == [1])
        #expect(contents.issues.map(\.kind) == [.truncatedTail])
        #expect(contents.issues.first?.path == directory.journal)
        let goodLength = bytes.count - JournalCodec.frame(.submitted(plainJob(2))).count
        #expect(try directory.bytes(of: directory.journal).count == goodLength)
        try reopened.append(.submitted(plainJob(3)))
        try reopened.close()
        #expect(try open().load().jobs.map(\.sequence) == [1, 3])
    }

    @Test(
        "space is allocated ahead of the records: a journal left open reads without issues, a frame torn in that space is cut, close leaves the records alone"
    )
    func allocatedSpace() throws {
        // Past one allocation step, so that appends also cross into space allocated later.
        var sequence: UInt64 = 0
        let records: Int
        do {
            let store = try open()
            while store.statistics.bytes < FileJobStore.allocationStep + 4096 {
                sequence += 1
                try store.append(.submitted(plainJob(sequence)))
            }
            records = store.statistics.bytes
            let file = try directory.bytes(of: directory.journal)
            #expect(file.count > records)
            #expect(file[records...].allSatisfy { $0 == 0 })
        }  // dropped without close(), as a crash leaves it
        let written = Array(1...sequence)
        do {
            let reopened = try open()
            let contents = try reopened.load()
            #expect(contents.jobs.map(\.sequence) == written)
            #expect(contents.issues.isEmpty)
            #expect(reopened.statistics.bytes == records)
        }
        // A crash in the middle of a write: the start of a frame, then the allocated zeros.
        let frame = JournalCodec.frame(.submitted(plainJob(sequence + 1)))
        var file = try directory.bytes(of: directory.journal)
        #expect(file.count > records + frame.count)
        file.replaceSubrange(records..<(records + frame.count / 2), with: frame.prefix(frame.count / 2))
        try directory.write(file, to: directory.journal)

        let torn = try open()
        let contents = try torn.load()
        #expect(contents.jobs.map(\.sequence) == written)
        #expect(contents.issues.map(\.kind) == [.truncatedTail])
        #expect(contents.issues.first?.offset == records)
        #expect(try directory.bytes(of: directory.journal).count == records)
        try torn.append(.submitted(plainJob(sequence + 2)))
        try torn.close()
        let next = JournalCodec.frame(.submitted(plainJob(sequence + 2)))
        #expect(try directory.bytes(of: directory.journal).count == records + next.count)
        #expect(try open().load().jobs.map(\.sequence) == written + [sequence + 2])
    }

    @Test("a record failing its checksum is skipped and reported, never thrown")
    func checksumFailure() throws {
        let store = try open()
        for sequence in 1...3 { try store.append(.submitted(plainJob(UInt64(sequence)))) }
        try store.close()
        var bytes = try directory.bytes(of: directory.journal)
        let frameLength = JournalCodec.frame(.submitted(plainJob(1))).count
        bytes[JournalCodec.header.count + frameLength + 20] ^= 0xFF
        try directory.write(bytes, to: directory.journal)

        let contents = try open().load()
        #expect(contents.jobs.map(\.sequence) == [1, 3])
        #expect(contents.issues.count == 1)
        let issue = try #require(contents.issues.first)
        #expect(issue.kind == .checksumMismatch)
        #expect(issue.offset == JournalCodec.header.count + frameLength)
        #expect(issue.description.contains("checksum mismatch"))
    }

    @Test("when dead records outweigh live ones, the journal is rewritten with one record per live job")
    func compaction() throws {
        let store = try open(.init(compactionMinimumDeadRecords: 10))
        for sequence in 1...40 {
            let job = UInt64(sequence)
            try store.append(.submitted(plainJob(job)))
            try store.append(.attemptStarted(sequence: job, attempt: 1))
            if sequence % 4 != 0 { try store.append(.resolved(sequence: job, resolution: .succeeded)) }
        }
        let statistics = store.statistics
        #expect(statistics.compactions > 0)
        #expect(statistics.liveJobs == 10)
        #expect(statistics.records - statistics.liveJobs <= max(statistics.liveJobs, 10))
        let before = try store.load().jobs
        try store.compact()
        #expect(store.statistics.records == 10)
        try store.close()
        let reopened = try open()
        #expect(try reopened.load().jobs == before)
        #expect(before.allSatisfy { $0.isRunning && $0.lastStartedAttempt == 1 })
        #expect(!FileManager.default.fileExists(atPath: directory.journal + ".tmp"))
    }

    @Test("a second opener of the directory gets an error naming the lock file")
    func lockContention() throws {
        let first = try open()
        let error = try #require(throws: JobStoreError.self) { try open() }
        #expect(error.code == .locked)
        #expect(error.path == directory.path + "/lock")
        #expect(error.description.contains(directory.path))
        try first.close()
        _ = try open()
    }

    @Test("a missing directory is an error naming it when it is not to be created")
    func missingDirectory() throws {
        let missing = directory.path + "/not-here"
        let error = try #require(throws: JobStoreError.self) {
            try FileJobStore(directory: missing, configuration: .init(createDirectory: false))
        }
        #expect(error.code == .directoryMissing)
        #expect(error.description.contains(missing))
        #expect(error.description.contains("No such file or directory"))
        _ = try FileJobStore(directory: missing + "/deeper")
        #expect(FileManager.default.fileExists(atPath: missing + "/deeper/journal"))
    }

    @Test("a path that is a file, or has a file as parent, is an error naming the path and cause")
    func notADirectory() throws {
        let file = directory.path + "/plain-file"
        try directory.write([1, 2, 3], to: file)
        let error = try #require(throws: JobStoreError.self) { try FileJobStore(directory: file) }
        #expect(error.code == .notADirectory)
        #expect(error.path == file)
        let below = try #require(throws: JobStoreError.self) { try FileJobStore(directory: file + "/jobs") }
        #expect(below.code == .cannotCreateDirectory)
        #expect(below.description.contains(file + "/jobs"))
        #expect(below.description.contains("Not a directory"))
    }

    @Test("a file that is not a journal is refused, not overwritten")
    func notAJournal() throws {
        try directory.write(Array("hello, world".utf8), to: directory.journal)
        let error = try #require(throws: JobStoreError.self) { try open() }
        #expect(error.code == .notAJournal)
        #expect(error.path == directory.journal)
        #expect(try directory.bytes(of: directory.journal) == Array("hello, world".utf8))
    }

    @Test("an empty or half-created journal is started afresh")
    func emptyJournal() throws {
        try directory.write(Array("SGJ".utf8), to: directory.journal)
        let store = try open()
        #expect(try store.load().jobs.isEmpty)
        #expect(try directory.bytes(of: directory.journal) == JournalCodec.header)
    }

    @Test("batched durability writes at once (another opener sees it) and syncs within the window")
    func batched() throws {
        let store = try open(.init(durability: .batched(window: .seconds(60))))
        try store.append(.submitted(plainJob(1)))
        try store.close()
        #expect(try open().load().jobs.map(\.sequence) == [1])
    }

    @Test("a batched write is synced when the injected clock reaches the end of its window")
    func batchedSyncFollowsTheInjectedClock() async throws {
        let clock = ManualClock()
        let store = try FileJobStore(
            directory: directory.path, configuration: .init(durability: .batched(window: .seconds(5))), clock: clock)
        try store.append(.submitted(plainJob(1)))
        try store.append(.submitted(plainJob(2)))
        let written = store.statistics
        #expect(written.syncedBytes < written.bytes)
        let sync = try #require(store.backgroundSync)
        // One timer for the window, whatever the number of writes in it, due five seconds after the first.
        await clock.waitForSleeper(until: clock.now.advanced(by: .seconds(5)))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(4))
        #expect(store.statistics.syncedBytes < written.bytes)
        clock.advance(by: .seconds(1))
        await sync.value
        #expect(store.statistics.syncedBytes == written.bytes)
        #expect(store.backgroundSync == nil)
        // The next write opens the next window.
        try store.append(.submitted(plainJob(3)))
        #expect(store.backgroundSync != nil)
        try store.close()
    }

    @Test("invalid configuration values are rejected naming the field")
    func invalidConfiguration() throws {
        let error = try #require(throws: JobStoreError.self) {
            try open(.init(durability: .batched(window: .zero)))
        }
        #expect(error.code == .invalidConfiguration)
        #expect(error.description.contains("durability window must be positive"))
    }

    @Test("after close, appends throw and name the journal")
    func closed() throws {
        let store = try open()
        try store.close()
        let error = try #require(throws: JobStoreError.self) { try store.append(.submitted(plainJob(1))) }
        #expect(error.code == .closed)
        #expect(error.path == directory.journal)
    }
}
