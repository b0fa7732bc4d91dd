import Foundation
import Testing

@testable import SyncGateDurable

/// Creating the store's directory: every missing level made, each entry synced in its parent.
@Suite("POSIXFile directories")
struct POSIXFileDirectoryTests {
    let directory = TemporaryDirectory()

    @Test(
        "the parent of a path",
        arguments: [
            ("/var/lib/app/jobs", "/var/lib/app"), ("/jobs", "/"), ("jobs", "."), ("state/jobs", "state"),
            ("/var/lib/app/", "/var/lib"), ("/", "/"),
        ])
    func parent(path: String, parent: String) {
        #expect(POSIXFile.parentPath(of: path) == parent)
    }

    @Test("missing levels are created, and an existing directory is accepted")
    func nested() throws {
        let path = directory.path + "/a/b/c"
        #expect(POSIXFile.makeDirectories(path) == nil)
        #expect(try POSIXFile.isDirectory(path) == true)
        #expect(POSIXFile.makeDirectories(path) == nil)
    }

    @Test("syncing the entry of a path whose parent is missing names the error")
    func missingParent() {
        #expect(POSIXFile.syncParent(of: directory.path + "/missing/child") == ENOENT)
        #expect(POSIXFile.syncParent(of: directory.path + "/child") == nil)
    }

    @Test("a file where a level should be is refused as not a directory")
    func fileInTheWay() throws {
        try directory.write([1], to: directory.path + "/file")
        #expect(POSIXFile.makeDirectories(directory.path + "/file") == ENOTDIR)
        #expect(POSIXFile.makeDirectories(directory.path + "/file/below") == ENOTDIR)
    }
}
