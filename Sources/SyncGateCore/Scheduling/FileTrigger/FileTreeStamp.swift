import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether files under a trigger's paths changed since an instant, from their change times: what a
/// restored file-triggered job checks for the changes made while no process watched them.
///
/// A change of a file's content or metadata moves its `ctime` and `mtime`, a creation, deletion or rename
/// in a directory moves the directory's; so the latest of them over the tree (the paths, every directory
/// under them and their entries, symbolic links not followed) is later than the instant exactly when
/// something changed since (up to the file system's time resolution and a wall clock set backwards). A
/// path that is missing or cannot be read counts as changed, so a doubt runs the job. A path that is
/// itself a symbolic link is read at its target, as the watchers watch it, and the link's own times
/// count too (a link made to point elsewhere is a new link).
package enum FileTreeStamp {
    /// The most entries examined; a larger tree counts as changed.
    package static let entryLimit = 1_000_000

    /// Whether anything under `paths` changed after `instant`, leaving out the directories under them
    /// that are, or lie under, a path of `ignoring` (``FileTreeExclusion``: never a path of `paths`),
    /// with everything under them. The entry of a left-out directory in its parent still counts (its
    /// creation, deletion or rename changes the parent), but not the directory's own times.
    package static func changed(under paths: [String], since instant: Date, ignoring: [String] = []) -> Bool {
        guard let latest = latestChange(under: paths, ignoring: ignoring) else { return true }
        return latest > instant
    }

    /// The latest change time over the trees of `paths`, without the directories left out by `ignoring`
    /// (see ``changed(under:since:ignoring:)``); `nil` when a path is missing or the tree is larger than
    /// ``entryLimit``.
    package static func latestChange(under paths: [String], ignoring: [String] = []) -> Date? {
        let exclusion = FileTreeExclusion(roots: paths, ignored: ignoring)
        var latest = Date.distantPast
        var pending = paths
        var examined = 0
        while let path = pending.popLast() {
            examined += 1
            guard examined <= entryLimit else { return nil }
            var information = stat()
            guard SystemBytes.withCString(path, { lstat($0, &information) }) == 0 else {
                if paths.contains(path) { return nil }
                continue  // removed while the tree was read: its directory's time shows it
            }
            if information.st_mode & S_IFMT == S_IFLNK && paths.contains(path) {
                latest = max(latest, changeTime(of: information))
                guard SystemBytes.withCString(path, { stat($0, &information) }) == 0 else { return nil }
            }
            if information.st_mode & S_IFMT == S_IFDIR && exclusion.excludes(path) { continue }
            latest = max(latest, changeTime(of: information))
            guard information.st_mode & S_IFMT == S_IFDIR else { continue }
            DirectoryListing.forEach(in: path) { entry in
                pending.append(path == "/" ? "/" + entry.name : path + "/" + entry.name)
            }
        }
        return latest
    }

    private static func changeTime(of information: stat) -> Date {
        #if canImport(Darwin)
            let times = [information.st_ctimespec, information.st_mtimespec]
        #else
            let times = [information.st_ctim, information.st_mtim]
        #endif
        let seconds = times.map { Double($0.tv_sec) + Double($0.tv_nsec) / 1e9 }.max() ?? 0
        return Date(timeIntervalSince1970: seconds)
    }
}
