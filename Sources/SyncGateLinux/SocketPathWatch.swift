import SyncGateCore

#if os(Linux)
    import Dispatch
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Waits for a Unix socket path to be created, with inotify, so that a source whose bus is not there
    /// reconnects the moment the bus starts instead of polling for it.
    ///
    /// It watches the deepest existing directory of the path (``SocketPathPlan``) and follows the path
    /// down as its directories appear. It makes no wake-up until something is created in a directory it
    /// watches. When the socket appears, `onAppeared` runs once, on `queue`, and the watch ends. If its
    /// directory disappears, the watch starts over from the deepest directory that still exists.
    final class SocketPathWatch: Sendable {
        private struct State {
            var plan: SocketPathPlan
            var watch: Int32 = -1
            var isDone = false
        }

        private let descriptor: Int32
        private let state: LockedState<State>
        /// Behind a lock only because dispatch sources are not marked `Sendable`; they are thread-safe.
        private let source: LockedState<any DispatchSourceRead>
        private let onAppeared: @Sendable () -> Void

        /// Whether the socket file already existed when the watch started (a stale socket, or one created
        /// just before): its creation was not seen, so only a later one will be.
        let socketWasPresent: Bool

        /// Starts watching `path`; `nil` when the path is not absolute or inotify is unavailable.
        init?(path: String, queue: DispatchQueue, onAppeared: @escaping @Sendable () -> Void) {
            guard let plan = SocketPathPlan(path: path, exists: Self.exists) else { return nil }
            let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard descriptor >= 0 else { return nil }
            self.descriptor = descriptor
            self.onAppeared = onAppeared
            // Armed before the source reads: events that come meanwhile wait in the descriptor.
            var initial = State(plan: plan)
            let appeared = Self.arm(&initial, descriptor, socketIsNew: false)
            socketWasPresent = !appeared && Self.exists(initial.plan.path)
            state = LockedState(initial)
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            self.source = LockedState(source)
            source.setEventHandler { [weak self] in self?.readEvents() }
            source.setCancelHandler { close(descriptor) }
            source.resume()
            if appeared {
                cancel()
                queue.async { onAppeared() }
            }
        }

        deinit {
            source.withLock { $0.cancel() }
        }

        /// Whether the watch still waits (it has not seen the socket appear, nor been cancelled).
        var isWatching: Bool { state.withLock { !$0.isDone } }

        /// Whether a creation of the socket will be seen from now on, and none was missed: the watch still
        /// waits, and the socket was absent when it started.
        var awaitsCreation: Bool { !socketWasPresent && isWatching }

        /// Ends the watch; `onAppeared` will not run after this returns unless it already started.
        func cancel() {
            state.withLock { $0.isDone = true }
            source.withLock { $0.cancel() }
        }

        /// Watches the plan's directory; follows it down while the next component already exists.
        /// Returns whether the socket counts as appeared: it exists once its directory is watched and
        /// `socketIsNew` (its directory was just created) or a directory was descended into meanwhile.
        private static func arm(_ state: inout State, _ descriptor: Int32, socketIsNew: Bool) -> Bool {
            var socketIsNew = socketIsNew
            while true {
                if state.watch >= 0 { inotify_rm_watch(descriptor, state.watch) }
                let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
                state.watch = inotify_add_watch(descriptor, state.plan.directory, mask)
                if state.watch < 0 {
                    // The directory went away meanwhile: start again from what exists now.
                    guard let fresh = SocketPathPlan(path: state.plan.path, exists: exists) else { return false }
                    if fresh.depth >= state.plan.depth { return false }
                    state.plan = fresh
                    continue
                }
                // Created between the check and the watch: follow it now, or it is never reported.
                guard exists(state.plan.nextPath) else { return false }
                if state.plan.isAtSocketDirectory { return socketIsNew }
                _ = state.plan.created(state.plan.nextName)
                socketIsNew = true
            }
        }

        private func readEvents() {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var appeared = false
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                var offset = 0
                while offset + 16 <= count {
                    let (watch, mask, length) = buffer.withUnsafeBytes { bytes in
                        (
                            bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                            bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                            Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        )
                    }
                    let nameBytes = buffer[(offset + 16)..<min(offset + 16 + length, count)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    offset += 16 + length
                    appeared = appeared || handle(watch: watch, mask: mask, name: name)
                }
            }
            if appeared {
                cancel()
                onAppeared()
            }
        }

        /// Handles one event; returns whether the socket appeared.
        private func handle(watch: Int32, mask: UInt32, name: String) -> Bool {
            state.withLock { state in
                guard !state.isDone, watch == state.watch else { return false }
                if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                    guard let fresh = SocketPathPlan(path: state.plan.path, exists: Self.exists) else {
                        return false
                    }
                    state.watch = -1
                    state.plan = fresh
                    return Self.arm(&state, descriptor, socketIsNew: true)
                }
                guard mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 else { return false }
                switch state.plan.created(name) {
                case .ignore: return false
                case .appeared: return true
                case .descend: return Self.arm(&state, descriptor, socketIsNew: true)
                }
            }
        }

        private static func exists(_ path: String) -> Bool {
            var information = stat()
            return lstat(path, &information) == 0
        }
    }
#endif
