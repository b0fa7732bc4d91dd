#if canImport(Glibc)
    import Glibc
#endif

/// The process's resident memory, from `/proc/self/statm`.
enum ProcessMemory {
    private typealias MallocTrim = @convention(c) (Int) -> Int32

    /// Resident bytes now, or `nil` where `/proc/self/statm` cannot be read.
    static func residentBytes() -> Int? {
        #if os(Linux)
            guard let text = readText("/proc/self/statm") else { return nil }
            let fields = text.split(separator: " ")
            guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
            return nil
        #endif
    }

    /// Returns freed heap memory to the system (glibc `malloc_trim(0)`), so a "before" reading does not
    /// include free memory that later allocations would reuse without growing the resident set.
    static func trim() {
        #if os(Linux)
            guard let symbol = dlsym(nil, "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }

    /// The whole content of a small text file such as one under `/proc`.
    static func readText(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
