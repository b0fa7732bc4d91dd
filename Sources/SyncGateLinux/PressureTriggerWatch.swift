import SyncGateCore

#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// PSI triggers armed on one file per resource, and a thread of SyncGate's own (`sg-pressure`) blocked
    /// in `poll` until one of them fires: no wake-up while the machine is calm.
    ///
    /// ``arm(directory:thresholds:)`` opens `<directory>/{cpu,io,memory}` and writes each a trigger
    /// (``PressureStallParser/trigger(percent:)``) on the caller's thread, so a kernel that refuses one
    /// (no PSI, `EOPNOTSUPP`, a window it does not allow) is known at once, and samples the stall totals.
    /// ``start(_:)`` starts the thread. A trigger's signal (`POLLPRI`) is checked against a new sample
    /// (``PressureStallSample/confirms(_:thresholds:)``): one the totals do not bear out is reported as
    /// ``Event/dismissed`` and the thread waits on from the new sample. The thread ends the first time a
    /// signal is confirmed (or a trigger's file reports an error, or the totals cannot be read) or
    /// ``stop()`` is called, reporting which. A watch is armed once and started at most once; its files
    /// close when the last reference goes, after the thread ends.
    package final class PressureTriggerWatch: Sendable {
        /// What the thread reports.
        package enum Event: Sendable, Hashable {
            /// A trigger's signal that the stall totals do not bear out; the thread waits on.
            case dismissed
            /// A trigger fired (or its file reported an error, or ``simulateFire()`` was called); the
            /// thread has ended.
            case fired
            /// ``stop()`` was called; the thread has ended.
            case stopped
        }

        private let directory: String
        private let thresholds: PressureThresholds
        /// The stall totals read when the triggers were armed; `nil` when they could not be read (every
        /// signal then counts).
        private let armedSample: PressureStallSample?
        private let triggers: [Int32]
        /// The control socket pair: ``stop()`` and ``simulateFire()`` write one byte to `controlWrite`,
        /// the thread polls `controlRead`.
        private let controlRead: Int32
        private let controlWrite: Int32

        private init(
            directory: String, thresholds: PressureThresholds, triggers: [Int32], controlRead: Int32,
            controlWrite: Int32
        ) {
            self.directory = directory
            self.thresholds = thresholds
            self.armedSample = PressureStallSample.read(directory: directory)
            self.triggers = triggers
            self.controlRead = controlRead
            self.controlWrite = controlWrite
        }

        deinit {
            for descriptor in triggers + [controlRead, controlWrite] {
                close(descriptor)
            }
        }

        /// Opens each resource's file in `directory` and writes its trigger for its threshold.
        ///
        /// - Returns: the armed watch, or why a trigger could not be armed, naming the file and the errno.
        package static func arm(
            directory: String, thresholds: PressureThresholds
        ) -> Result<PressureTriggerWatch, PressureTriggerError> {
            var opened: [Int32] = []
            func fail(_ error: PressureTriggerError) -> Result<PressureTriggerWatch, PressureTriggerError> {
                for descriptor in opened { close(descriptor) }
                return .failure(error)
            }
            for resource in PressureResource.allCases {
                let path = directory + "/" + resource.rawValue
                let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
                guard descriptor >= 0 else {
                    return fail(PressureTriggerError(operation: "open", path: path, code: errno))
                }
                opened.append(descriptor)
                let trigger = Array(PressureStallParser.trigger(percent: thresholds[resource]).utf8) + [0]
                var written: Int
                repeat {
                    written = trigger.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                } while written < 0 && errno == EINTR
                guard written >= 0 else {
                    return fail(PressureTriggerError(operation: "write", path: path, code: errno))
                }
            }
            var pair: [Int32] = [-1, -1]
            // A socket pair rather than pipe(2): close-on-exec from the start (Glibc's module does not
            // offer pipe2).
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
                return fail(PressureTriggerError(operation: "socketpair", path: directory, code: errno))
            }
            return .success(
                PressureTriggerWatch(
                    directory: directory, thresholds: thresholds, triggers: opened, controlRead: pair[0],
                    controlWrite: pair[1]))
        }

        /// Starts the thread that waits for a trigger; `report` is called on it for every dismissed signal
        /// and once, last, when it ends (``Event/fired`` or ``Event/stopped``).
        ///
        /// - Returns: `false` when the thread could not be started (`report` is then never called).
        @discardableResult
        package func start(_ report: @escaping @Sendable (Event) -> Void) -> Bool {
            let started = DedicatedThread.start(name: "sg-pressure") { [self] in
                report(waitForTrigger(dismissed: { report(.dismissed) }))
            }
            guard case .success(let thread) = started else { return false }
            pthread_detach(thread)
            return true
        }

        /// Ends the thread without a fire; its `report` ends with ``Event/stopped`` unless a trigger fired
        /// first. Safe to call from any thread, before or after ``start(_:)``, and more than once.
        package func stop() {
            signal(UInt8(ascii: "s"))
        }

        /// Wakes the thread as if a trigger had fired and been confirmed: the seam through which tests fire
        /// a watch armed on fixture files, which never signal `POLLPRI` themselves.
        package func simulateFire() {
            signal(UInt8(ascii: "f"))
        }

        /// Wakes the thread as if a trigger had signalled, to be checked against the stall totals like
        /// the kernel's `POLLPRI`.
        package func simulateSignal() {
            signal(UInt8(ascii: "k"))
        }

        private func signal(_ byte: UInt8) {
            var byte = byte
            while write(controlWrite, &byte, 1) < 0 && errno == EINTR {}
        }

        private func waitForTrigger(dismissed: () -> Void) -> Event {
            var descriptors = triggers.map { pollfd(fd: $0, events: Int16(POLLPRI), revents: 0) }
            descriptors.append(pollfd(fd: controlRead, events: Int16(POLLIN), revents: 0))
            var sample = armedSample
            /// Whether a signal is borne out by the totals; a dismissed one moves the sample on.
            func confirmed() -> Bool {
                guard let before = sample, let now = PressureStallSample.read(directory: directory) else {
                    return true
                }
                if before.confirms(now, thresholds: thresholds) { return true }
                sample = now
                dismissed()
                return false
            }
            while true {
                let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return .fired
                }
                if descriptors[descriptors.count - 1].revents != 0 {
                    var byte: UInt8 = 0
                    if read(controlRead, &byte, 1) == 1 {
                        switch byte {
                        case UInt8(ascii: "f"): return .fired
                        case UInt8(ascii: "k"): if confirmed() { return .fired }
                        default: return .stopped
                        }
                    }
                }
                let broken = Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL)
                let triggerDescriptors = descriptors.dropLast()
                if triggerDescriptors.contains(where: { $0.revents & broken != 0 }) { return .fired }
                if triggerDescriptors.contains(where: { $0.revents & Int16(POLLPRI) != 0 }), confirmed() {
                    return .fired
                }
            }
        }
    }

    /// A PSI trigger could not be armed: the failed `operation` on `path`, with its `errno` `code`.
    package struct PressureTriggerError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The system call that failed: `open`, `write` or `socketpair`.
        package let operation: String
        /// The file it was called on.
        package let path: String
        /// Its `errno`.
        package let code: Int32

        /// `write /proc/pressure/cpu failed: Operation not supported (errno 95)`.
        package var description: String {
            "\(operation) \(path) failed: \(SystemErrorText.described(code))"
        }
    }
#endif
