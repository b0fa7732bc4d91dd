#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTesting

    @testable import SyncGateCore

    @testable import SyncGateLinux

    /// Runs the connectivity observer in this test process with its sockets in another network namespace,
    /// reading interface kinds from a fixture sysfs tree.
    ///
    /// The observer opens its netlink sockets in its initializer, on the calling thread, so the
    /// initializer runs on a thread of its own that first joins the namespace (`setns`, which a thread of
    /// a multithreaded process may do for a network namespace); the thread ends after, and nothing else
    /// of the process leaves its namespace. `/sys` of this process shows its own namespace's devices, so
    /// the kinds come from a fixture tree (``SysfsFixture``).
    enum NetnsObserverHost {
        /// `CLONE_NEWNET`.
        static let cloneNewNet: Int32 = 0x4000_0000

        /// `setns(2)`, which Glibc declares only for `_GNU_SOURCE`: looked up at run time.
        static let setNamespace: (@convention(c) (Int32, Int32) -> Int32)? = {
            dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setns").map {
                unsafeBitCast($0, to: (@convention(c) (Int32, Int32) -> Int32).self)
            }
        }()

        /// An observer (debounce zero, no NetworkManager) whose sockets are in namespace `namespace` (a name
        /// of `ip netns`), reading sysfs under `sysfsRoot`.
        static func observer(inNamespace namespace: String, sysfsRoot: String) throws -> ConnectivityObserver {
            let result = LockedState<Result<ConnectivityObserver, NetnsError>?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                defer { done.signal() }
                let made = Result { () throws(NetnsError) -> ConnectivityObserver in
                    let fd = open("/run/netns/\(namespace)", O_RDONLY | O_CLOEXEC)
                    guard fd >= 0 else { throw NetnsError(message: "cannot open /run/netns/\(namespace): \(errno)") }
                    defer { close(fd) }
                    guard let setns = setNamespace, setns(fd, cloneNewNet) == 0 else {
                        throw NetnsError(message: "setns into \(namespace) failed: \(errno)")
                    }
                    do {
                        return try ConnectivityObserver(
                            configuration: ConnectivityReaderConfiguration(debounce: .zero, sysfsRoot: sysfsRoot))
                    } catch {
                        throw NetnsError(message: "the observer did not start: \(error)")
                    }
                }
                result.withLock { $0 = made }
            }
            done.wait()
            guard let made = result.withLock({ $0 }) else { throw NetnsError(message: "no observer") }
            return try made.get()
        }
    }

    /// A fixture sysfs tree in a temporary directory: `class/net/NAME/uevent` for the interfaces it is
    /// given, NAME taken byte for byte; removed by ``remove()``.
    struct SysfsFixture {
        /// The tree's root, to pass as `sysfsRoot`.
        let root: String

        /// Creates the tree with one interface directory per entry, whose `uevent` holds `DEVTYPE=` the
        /// entry's value (no `DEVTYPE` line when it is `nil`).
        init(interfaces: [(name: [UInt8], devType: String?)]) throws {
            root = NSTemporaryDirectory() + "sg-sysfs-\(getpid())-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: root + "/class/net", withIntermediateDirectories: true)
            for interface in interfaces {
                let directory = Array((root + "/class/net/").utf8) + interface.name
                guard Self.withCPath(directory, { mkdir($0, 0o755) }) == 0 else {
                    throw NetnsError(message: "mkdir of a fixture interface failed: \(errno)")
                }
                let text = Array(("INTERFACE=x\n" + (interface.devType.map { "DEVTYPE=\($0)\n" } ?? "")).utf8)
                let fd = Self.withCPath(directory + Array("/uevent".utf8)) { open($0, O_WRONLY | O_CREAT, 0o644) }
                guard fd >= 0 else { throw NetnsError(message: "cannot write a fixture uevent: \(errno)") }
                defer { close(fd) }
                guard text.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == text.count else {
                    throw NetnsError(message: "short write of a fixture uevent")
                }
            }
        }

        /// Deletes the tree.
        func remove() {
            _ = try? SpawnedProcess.run("/bin/rm", ["-rf", root])
        }

        private static func withCPath<Result>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
            (path + [0]).withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
            }
        }
    }
#endif
