// The durable benchmark's anchor: Debian's libsqlite3 storing rows of the shape the durable submits
// store (a sequence number, the job's id and kind, the same JSON payload, the submission instant, the
// options' serial group and tags), in a fresh directory beside the durable store's, so both are measured
// on one file system in one run.

import CSQLite
import Foundation

/// A SQLite database of job rows, failing loudly on any error (a benchmark, not a store).
final class SQLiteJobTable {
    private var database: OpaquePointer?
    private var insert: OpaquePointer?
    let path: String

    /// Opens (or creates) `path` in WAL mode with `synchronous` (`FULL` or `NORMAL`).
    init(path: String, synchronous: String) {
        self.path = path
        check(sqlite3_open(path, &database), "open \(path)")
        execute("PRAGMA journal_mode=WAL")
        execute("PRAGMA synchronous=\(synchronous)")
        execute(
            "CREATE TABLE IF NOT EXISTS jobs (sequence INTEGER PRIMARY KEY, id TEXT NOT NULL, kind TEXT NOT NULL, "
                + "payload BLOB NOT NULL, submitted_at REAL NOT NULL, serial_group TEXT, tags TEXT)")
        check(
            sqlite3_prepare_v2(
                database, "INSERT INTO jobs VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1, &insert, nil),
            "prepare insert")
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close(database)
    }

    func execute(_ sql: String) {
        check(sqlite3_exec(database, sql, nil, nil, nil), sql)
    }

    /// Inserts one row; outside an explicit transaction this is one transaction (one commit).
    func insert(sequence: Int, id: String, kind: String, payload: [UInt8], submittedAt: Double, serialGroup: String?) {
        sqlite3_bind_int64(insert, 1, Int64(sequence))
        sqlite3_bind_text(insert, 2, id, -1, sqliteTransient)
        sqlite3_bind_text(insert, 3, kind, -1, sqliteTransient)
        payload.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(insert, 4, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
        }
        sqlite3_bind_double(insert, 5, submittedAt)
        if let serialGroup {
            sqlite3_bind_text(insert, 6, serialGroup, -1, sqliteTransient)
        } else {
            sqlite3_bind_null(insert, 6)
        }
        sqlite3_bind_text(insert, 7, "bench", -1, sqliteTransient)
        let result = sqlite3_step(insert)
        guard result == SQLITE_DONE else { fail(result, "insert") }
        sqlite3_reset(insert)
    }

    /// Reads every row into memory (the id, kind and payload copied out, as a restore would) and returns
    /// how many there were.
    func readAll() -> Int {
        var select: OpaquePointer?
        check(
            sqlite3_prepare_v2(
                database,
                "SELECT sequence, id, kind, payload, submitted_at, serial_group, tags FROM jobs "
                    + "ORDER BY sequence", -1, &select, nil),
            "prepare select")
        defer { sqlite3_finalize(select) }
        var rows: [(Int64, String, String, [UInt8], Double, String?)] = []
        while true {
            let result = sqlite3_step(select)
            if result == SQLITE_DONE { break }
            guard result == SQLITE_ROW else { fail(result, "select") }
            let payloadLength = Int(sqlite3_column_bytes(select, 3))
            let payload = sqlite3_column_blob(select, 3).map {
                Array(UnsafeRawBufferPointer(start: $0, count: payloadLength))
            }
            let group = sqlite3_column_text(select, 5).map { String(cString: $0) }
            rows.append(
                (
                    sqlite3_column_int64(select, 0), String(cString: sqlite3_column_text(select, 1)),
                    String(cString: sqlite3_column_text(select, 2)), payload ?? [], sqlite3_column_double(select, 4),
                    group
                ))
        }
        return rows.count
    }

    private func check(_ result: Int32, _ what: String) {
        if result != SQLITE_OK { fail(result, what) }
    }

    private func fail(_ result: Int32, _ what: String) -> Never {
        let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? "no database"
        fatalError("sqlite: \(what) failed with \(result): \(message)")
    }
}

/// `SQLITE_TRANSIENT` (a macro Swift does not import): SQLite copies the bound value.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The payload of job `index`, encoded as the durable scheduler encodes it.
func encodedPayload(_ index: Int, prefix: String = "") -> [UInt8] {
    Array((try? JSONEncoder().encode(Payload(photo: index, path: "/photos/\(prefix)\(index).heic"))) ?? Data())
}

/// Inserts per second, one transaction (one commit) per insert, in WAL mode with `synchronous`; returns the
/// rate.
func sqliteInsertThroughput(label: String, synchronous: String, count: Int, reporting: Bool = true) -> Double {
    let directory = freshDirectory("sqlite-\(label)")
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let table = SQLiteJobTable(path: directory + "/jobs.sqlite", synchronous: synchronous)
    let payloads = (0..<count).map { encodedPayload($0) }
    let now = Date().timeIntervalSince1970
    let elapsed = ContinuousClock().measure {
        for index in 0..<count {
            table.insert(
                sequence: index + 1, id: "job-\(index)", kind: "work", payload: payloads[index], submittedAt: now,
                serialGroup: nil)
        }
    }
    let rate = Double(count) / seconds(elapsed)
    guard reporting else { return rate }
    print("sqlite insert, WAL, synchronous=\(synchronous): \(count) rows in \(elapsed), \(Int(rate)) inserts/s")
    report("sqlite-\(label)", ["rows": Double(count), "seconds": seconds(elapsed), "perSecond": rate])
    return rate
}

/// Opens a database of `count` rows (written beforehand in one transaction) and reads them all; returns the
/// seconds.
func sqliteReadPending(count: Int) -> Double {
    let directory = freshDirectory("sqlite-read")
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/jobs.sqlite"
    do {
        let table = SQLiteJobTable(path: path, synchronous: "NORMAL")
        let now = Date().timeIntervalSince1970
        table.execute("BEGIN")
        for index in 0..<count {
            table.insert(
                sequence: index + 1, id: "job-\(index)", kind: "work", payload: encodedPayload(index),
                submittedAt: now, serialGroup: index % 10 == 0 ? "serial" : nil)
        }
        table.execute("COMMIT")
    }
    var rows = 0
    let elapsed = ContinuousClock().measure {
        let table = SQLiteJobTable(path: path, synchronous: "NORMAL")
        rows = table.readAll()
    }
    print("sqlite open + read \(rows) rows: \(elapsed)")
    report("sqlite-read-pending", ["rows": Double(rows), "seconds": seconds(elapsed)])
    return seconds(elapsed)
}
