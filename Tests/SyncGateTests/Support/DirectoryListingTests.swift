import Foundation
import Testing

@testable import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading `readdir`'s records field by field.
@Suite("DirectoryListing")
struct DirectoryListingTests {
    @Test("a short record at the very end of readable memory is read without touching what follows")
    func shortRecordAtTheEndOfMemory() throws {
        // Two pages, the second made unreadable: a record whose name ends on the first page's last byte,
        // as readdir's last record of a buffer can. Loading a whole `dirent` there reads the second page.
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let memory = try #require(
            mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        #expect(memory != MAP_FAILED)
        defer { munmap(memory, 2 * page) }
        #expect(mprotect(memory + page, page, PROT_NONE) == 0)
        let name = Array("a".utf8) + [0]
        let recordLength = DirectoryListing.nameOffset + name.count
        #expect(recordLength < MemoryLayout<dirent>.size)
        let record = memory + page - recordLength
        record.storeBytes(of: UInt8(DT_DIR), toByteOffset: DirectoryListing.typeOffset, as: UInt8.self)
        for (offset, byte) in name.enumerated() {
            record.storeBytes(of: byte, toByteOffset: DirectoryListing.nameOffset + offset, as: UInt8.self)
        }
        let entry = DirectoryListing.entry(at: UnsafeRawPointer(record))
        #expect(entry == DirectoryListing.Entry(name: "a", type: UInt8(DT_DIR)))
        #expect(entry.isDirectory)
    }

    @Test("every entry but . and .., with its type; a directory that cannot be opened gives nil")
    func entries() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("listing-\(UUID())").path
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let long = String(repeating: "n", count: 255)
        for name in [long, "é", "f"] {
            #expect(FileManager.default.createFile(atPath: root + "/" + name, contents: Data()))
        }
        let listed = try #require(DirectoryListing.entries(of: root))
        #expect(Set(listed.map(\.name)) == ["sub", long, "é", "f"])
        for entry in listed where !entry.isTypeUnknown {
            #expect(entry.isDirectory == (entry.name == "sub"), "\(entry.name)")
        }
        #expect(DirectoryListing.entries(of: root + "/missing") == nil)
        #expect(DirectoryListing.entries(of: root + "/f") == nil)
    }
}
