import SyncGateCore

#if canImport(Foundation) && (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS) || SYNCGATE_APPLE_STUBS)
    import Dispatch
    import Foundation
    #if SYNCGATE_APPLE_STUBS
        import FoundationAppleStubs  // Dispatch's file-system sources and O_EVTONLY, for Tools/AppleTypecheck
    #endif

    /// The ``FileEventSource`` seam on dispatch file-system object sources: one per watched object, its
    /// descriptor opened with `O_EVTONLY` (which does not keep its volume from being unmounted), every
    /// source delivering on one private serial queue.
    final class DispatchFileEventSource: FileEventSource {
        /// The events that count as a change of an object: for a directory, entries created, deleted or
        /// renamed in it (`.write`, `.link`); for the object itself, its deletion, renaming or revocation.
        static var events: DispatchSource.FileSystemEvent { [.write, .delete, .rename, .extend, .link, .revoke] }

        private let queue = DispatchQueue(label: "SyncGate.FileWatcher")

        func watchObject(
            at path: String, onEvent: @escaping @Sendable () -> Void
        ) throws(SyncFileWatchError) -> any FileWatchCancelling {
            let descriptor = open(path, O_EVTONLY)
            guard descriptor >= 0 else {
                let code = errno
                throw SyncFileWatchError(path: path, reason: code == ENOENT ? .missing : .system(errno: code))
            }
            let source = DispatchSource.makeFileSystemObjectSource(
                fileDescriptor: descriptor, eventMask: Self.events, queue: queue)
            source.setEventHandler { onEvent() }
            source.setCancelHandler { close(descriptor) }
            source.activate()
            return DispatchObjectWatch(source: source)
        }

        func kind(of path: String) -> FileObjectKind {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
            return isDirectory.boolValue ? .directory : .other
        }

        func subdirectories(of path: String) -> [String] {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [] }
            let prefix = path == "/" ? "/" : path + "/"
            // `attributesOfItem` describes a symbolic link itself, so links to directories are not walked.
            return names.map { prefix + $0 }.filter { child in
                let attributes = try? FileManager.default.attributesOfItem(atPath: child)
                return attributes?[.type] as? FileAttributeType == .typeDirectory
            }
        }
    }

    /// One dispatch file-system object source; cancelling it closes its descriptor.
    final class DispatchObjectWatch: FileWatchCancelling {
        private let source: any DispatchSourceFileSystemObject

        init(source: any DispatchSourceFileSystemObject) {
            self.source = source
        }

        func cancel() { source.cancel() }
    }
#endif
