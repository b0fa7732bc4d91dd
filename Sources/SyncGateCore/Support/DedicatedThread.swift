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
        /// Returns only once the new thread carries its name, so a census of the process's threads made
        /// right after the call finds it under that name.
        ///
        /// The thread is joinable: a caller that does not join it detaches it (`pthread_detach`), or a
        /// thread that ends leaks its stack (and the thread sanitizer reports the leak).
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
                    start.named.post()
                    start.body()
                    return nil
                }, context)
            guard result == 0 else {
                Unmanaged<Start>.fromOpaque(context).release()
                return .failure(DedicatedThreadError(code: result))
            }
            start.named.wait()
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
            let named = NamedSignal()
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

    /// A one-shot signal from a new thread to its creator: "I carry my name now".
    ///
    /// ``post()`` is called once, by the new thread; ``wait()`` once, by the creator, and returns after it.
    package final class NamedSignal: @unchecked Sendable {
        private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

        package init() { sem_init(semaphore, 0, 0) }

        deinit {
            sem_destroy(semaphore)
            semaphore.deallocate()
        }

        /// Signals the waiter.
        package func post() { sem_post(semaphore) }

        /// Blocks until ``post()`` has been called (retrying a wait interrupted by a signal).
        package func wait() {
            while sem_wait(semaphore) != 0 && errno == EINTR {}
        }
    }
#endif
