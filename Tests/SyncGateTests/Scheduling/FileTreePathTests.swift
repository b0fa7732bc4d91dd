import Testing

@testable import SyncGateCore

/// The path arithmetic of the file watchers, byte for byte: a `/` followed by a combining mark is still
/// a separator, and canonically equivalent names are different names.
@Suite("File tree paths")
struct FileTreePathTests {
    @Test(
        "a path splits at its last / byte",
        arguments: [
            ("/r/f.txt", "/r", "f.txt"), ("/f", "/", "f"), ("f", ".", "f"),
            ("/d/\u{301}f", "/d", "\u{301}f"), ("/d\u{301}/g", "/d\u{301}", "g"),
        ])
    func split(path: String, parent: String, name: String) {
        let (foundParent, foundName) = FileTreeWatcher.split(path)
        #expect(Array(foundParent.utf8) == Array(parent.utf8))
        #expect(Array(foundName.utf8) == Array(name.utf8))
    }

    @Test(
        "a path lies in a tree when its bytes begin with the root's, up to a /",
        arguments: [
            ("/r", "/r", true), ("/r/a", "/r", true), ("/ra", "/r", false), ("/x", "/", true),
            ("/r/\u{301}a", "/r", true), ("/caf\u{E9}/a", "/cafe\u{301}", false), ("/cafe\u{301}", "/caf\u{E9}", false),
        ])
    func inTree(path: String, root: String, inside: Bool) {
        #expect(FileTreeExclusion.isInTree(path, at: root) == inside)
    }
}
