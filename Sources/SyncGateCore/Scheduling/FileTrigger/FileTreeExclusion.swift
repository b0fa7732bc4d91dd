/// Which directories under a watch's roots are left out: those that are, or lie under, an ignored path
/// (``SystemFileWatcher/init(ignoring:)``). The watchers skip them and everything under them, and so does
/// ``FileTreeStamp/changed(under:since:ignoring:)``.
///
/// A root is never left out, nor is anything in the tree of a root that is, or lies under, an ignored
/// path: what a watch names explicitly is watched whole. Paths are compared as text, component by
/// component (`/a/bc` is not under `/a/b`), without resolving symbolic links; a trailing slash of an
/// ignored path is dropped.
package struct FileTreeExclusion: Sendable, Hashable {
    /// The roots of the watch.
    package let roots: [String]
    /// The ignored paths, without trailing slashes.
    package let ignored: [String]

    /// The exclusion of `ignored` from the trees of `roots`.
    package init(roots: [String], ignored: [String]) {
        self.roots = roots
        self.ignored = ignored.filter { !$0.isEmpty }.map(Self.trimmed)
    }

    /// Whether nothing is left out.
    package var isEmpty: Bool { ignored.isEmpty }

    /// Whether the directory at `path`, found under one of the roots, is left out with everything under it.
    package func excludes(_ path: String) -> Bool {
        guard !ignored.isEmpty, !roots.contains(path) else { return false }
        return ignored.contains { ignoredPath in
            Self.isInTree(path, at: ignoredPath)
                && !roots.contains { Self.isInTree(path, at: $0) && Self.isInTree($0, at: ignoredPath) }
        }
    }

    /// Whether `path` is `root` or lies under it, compared byte for byte (file names are bytes: text
    /// comparison would take canonically equivalent names, or a `/` followed by a combining mark, as
    /// something else).
    package static func isInTree(_ path: String, at root: String) -> Bool {
        let (path, root) = (path.utf8, root.utf8)
        guard path.starts(with: root) else { return false }
        if path.count == root.count || root.elementsEqual("/".utf8) { return true }
        return path[path.index(path.startIndex, offsetBy: root.count)] == UInt8(ascii: "/")
    }

    /// `path` without trailing slashes (`/` stays `/`).
    private static func trimmed(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1 && path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
