#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Starts named threads of SyncGate's own, outside Swift's concurrency pool.
    ///
    /// A thread named here shows under that name in `/proc/PID/task/*/comm` (and in `top -H`, `gdb`),
    /// instead of inheriting the name of whichever thread happened to create it.
    package enum DedicatedThread {
        /// Starts a thread that names itself `name` (at most 15 bytes are kept) and runs `body`.
        ///
        /// - Returns: the thread, or the error code of `pthread_create`.
        package static func start(
            name: String, _ body: sending @escaping () -> Void
        ) -> Result<pthread_t, DedicatedThreadError> {
            let start = Start(name: name, body: body)
            let context = Unmanaged.passRetained(start).toOpaque()
            var thread = pthread_t()
            let result = pthread_create(
                &thread, nil,
                { context in
                    guard let context else { return nil }
                    let start = Unmanaged<Start>.fromOpaque(context).takeRetainedValue()
                    DedicatedThread.nameCurrentThread(start.name)
                    start.body()
                    return nil
                }, context)
            guard result == 0 else {
                Unmanaged<Start>.fromOpaque(context).release()
                return .failure(DedicatedThreadError(code: result))
            }
            return .success(thread)
        }

        /// Names the calling thread (the kernel keeps at most 15 bytes).
        package static func nameCurrentThread(_ name: String) {
            let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            guard file >= 0 else { return }
            defer { close(file) }
            let bytes = Array(name.utf8.prefix(15))
            _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        }

        private final class Start {
            let name: String
            let body: () -> Void
            init(name: String, body: @escaping () -> Void) {
                self.name = name
                self.body = body
            }
        }
    }

    /// `pthread_create` failed with `code`.
    package struct DedicatedThreadError: Error {
        /// The error number `pthread_create` returned.
        package let code: Int32
    }
#endif
