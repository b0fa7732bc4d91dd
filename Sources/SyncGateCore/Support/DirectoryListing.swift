#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The entries of a directory, read with `readdir(3)` field by field.
///
/// `readdir` hands out records of variable length (`d_reclen`), each sized to its name: the last record in
/// its buffer may end well before `MemoryLayout<dirent>.size`, so loading a whole `dirent`
/// (`entry.pointee`) can read past the buffer's memory and crash. Only the name and the type are read
/// here, each at its field's offset, the name up to its terminating zero.
package enum DirectoryListing {
    /// One entry of a directory.
    package struct Entry: Sendable, Hashable {
        /// The entry's name in its lossless text form (``SystemBytes/text(of:)``: bytes that are not UTF-8
        /// kept as escapes, so ``SystemBytes/withCString(_:_:)`` gives the name back to the system).
        package var name: String
        /// Its `d_type`: `DT_DIR`, `DT_REG`, … or `DT_UNKNOWN` where the file system does not say.
        package var type: UInt8

        /// Creates an entry.
        package init(name: String, type: UInt8) {
            self.name = name
            self.type = type
        }

        /// Whether `d_type` says it is a directory (`false` for `DT_UNKNOWN`, which needs an `lstat`).
        package var isDirectory: Bool { type == UInt8(DT_DIR) }
        /// Whether the file system did not give the type.
        package var isTypeUnknown: Bool { type == UInt8(DT_UNKNOWN) }
    }

    /// Calls `body` with each entry of the directory at `path` (in its lossless text form) except `.` and
    /// `..`, in `readdir`'s order; returns `false` (without calling it) when the directory cannot be opened.
    @discardableResult
    package static func forEach(in path: String, _ body: (Entry) -> Void) -> Bool {
        guard let stream = SystemBytes.withCString(path, { opendir($0) }) else { return false }
        defer { closedir(stream) }
        while let record = readdir(stream) {
            let entry = self.entry(at: UnsafeRawPointer(record))
            if entry.name == "." || entry.name == ".." { continue }
            body(entry)
        }
        return true
    }

    /// The entries of the directory at `path` except `.` and `..`; `nil` when it cannot be opened.
    package static func entries(of path: String) -> [Entry]? {
        var entries: [Entry] = []
        return forEach(in: path) { entries.append($0) } ? entries : nil
    }

    /// The name and type of the `dirent` record at `record`, reading no byte past its name's terminating
    /// zero.
    package static func entry(at record: UnsafeRawPointer) -> Entry {
        let name = SystemBytes.text(ofCString: (record + nameOffset).assumingMemoryBound(to: CChar.self))
        return Entry(name: name, type: (record + typeOffset).load(as: UInt8.self))
    }

    /// Where `d_name` begins in a record.
    package static var nameOffset: Int { MemoryLayout<dirent>.offset(of: \dirent.d_name)! }
    /// Where `d_type` is in a record.
    package static var typeOffset: Int { MemoryLayout<dirent>.offset(of: \dirent.d_type)! }
}
