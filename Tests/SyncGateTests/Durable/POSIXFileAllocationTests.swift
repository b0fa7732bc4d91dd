import Foundation
import Testing

@testable import SyncGateDurable

/// The allocation ahead of the records, by each of its two ways.
@Suite("POSIXFile allocation")
struct POSIXFileAllocationTests {
    let directory = TemporaryDirectory()

    @Test("allocated space reads as zeros after what the file held, by posix_fallocate and by writing zeros")
    func allocation() throws {
        for (name, allocate) in [
            ("posix_fallocate", POSIXFile.allocate), ("zeros", POSIXFile.allocateByWriting),
        ] as [(String, (Int32, Int, Int) -> Bool)] {
            let path = directory.path + "/" + name
            let fd = try POSIXFile.open(path, O_RDWR | O_CREAT)
            defer { POSIXFile.closeDescriptor(fd) }
            try POSIXFile.writeAll(fd, [1, 2, 3], at: 0, path: path)
            #expect(allocate(fd, 3, 4096 + 3), "\(name)")
            let bytes = try directory.bytes(of: path)
            #expect(bytes.count == 4096 + 3, "\(name)")
            #expect(Array(bytes.prefix(3)) == [1, 2, 3], "\(name)")
            #expect(bytes.dropFirst(3).allSatisfy { $0 == 0 }, "\(name)")
        }
    }

    @Test("a failed allocation by writing leaves the file as it was")
    func failedAllocation() throws {
        let path = directory.path + "/read-only"
        try directory.write([1, 2, 3], to: path)
        let fd = try POSIXFile.open(path, O_RDONLY)
        defer { POSIXFile.closeDescriptor(fd) }
        #expect(!POSIXFile.allocateByWriting(fd, from: 3, to: 4096))
        #expect(try directory.bytes(of: path) == [1, 2, 3])
    }
}
