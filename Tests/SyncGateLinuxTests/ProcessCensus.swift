#if os(Linux)
    import Foundation
    import Glibc

    /// What `/proc` says about another process: its descriptors, threads, CPU time and whether it lives;
    /// and its descriptor limit, set from outside (`prlimit`).
    enum ProcessCensus {
        /// The numbers of the process's open descriptors.
        static func descriptors(_ pid: pid_t) -> [Int32] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).compactMap { Int32($0) }
        }

        /// The process's descriptors and threads, for failure messages: `fd -> target` and thread names.
        static func summary(_ pid: pid_t) -> String {
            let descriptors = descriptors(pid).sorted().map { descriptor in
                let target =
                    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)"))
                return "\(descriptor) -> \(target ?? "?")"
            }
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            let names = tasks.sorted().map { task in
                let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? "?"
                return task + " " + name.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return "descriptors: " + descriptors.joined(separator: ", ") + "; threads: " + names.joined(separator: ", ")
        }

        /// The lowest descriptor number the process has not open.
        static func lowestFree(_ pid: pid_t) -> UInt {
            let open = Set(descriptors(pid))
            return UInt((Int32(0)...).first { !open.contains($0) }!)
        }

        /// How many threads the process has.
        static func threads(_ pid: pid_t) -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).count
        }

        /// The descriptors and threads that the process's own code opens and starts, for a census that
        /// must return to a baseline: descriptors other than the kernel's anonymous inodes (which
        /// libdispatch opens and closes for its timers as it pleases), threads other than libdispatch's
        /// pool (named after its queues' QoS classes, started and ended on demand).
        static func ownResources(_ pid: pid_t) -> (descriptors: Int, threads: Int) {
            let descriptors = descriptors(pid).filter { descriptor in
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")
                return !(target ?? "").hasPrefix("anon_inode:")
            }
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            let threads = tasks.filter { task in
                let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? ""
                return !name.contains("qos")
            }
            return (descriptors.count, threads.count)
        }

        /// Whether ``ownResources(_:)`` of `pid` are at most `baseline`.
        static func isWithin(_ baseline: (descriptors: Int, threads: Int), _ pid: pid_t) -> Bool {
            let now = ownResources(pid)
            return now.descriptors <= baseline.descriptors && now.threads <= baseline.threads
        }

        /// The fields of `/proc/PID/stat` after the command name (field 3 first), or `nil`.
        private static func statFields(_ pid: pid_t) -> [Substring]? {
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
            let text = String(decoding: data, as: UTF8.self)
            guard let close = text.lastIndex(of: ")") else { return nil }
            return text[text.index(after: close)...].split(separator: " ")
        }

        /// The CPU time the process has used, user and system (`utime` + `stime`), in clock ticks.
        static func cpuTicks(_ pid: pid_t) -> Int {
            guard let fields = statFields(pid), fields.count > 12 else { return 0 }
            return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        }

        /// Clock ticks per second.
        static var ticksPerSecond: Int { sysconf(Int32(_SC_CLK_TCK)) }

        /// Whether the process exists and is not a zombie.
        static func isLiving(_ pid: pid_t) -> Bool {
            guard let state = statFields(pid)?.first else { return false }
            return state != "Z" && state != "X"
        }

        private typealias SetLimit =
            @convention(c) (pid_t, Int32, UnsafePointer<rlimit>?, UnsafeMutablePointer<rlimit>?) -> Int32

        /// `prlimit(2)`, which Glibc's Swift module does not export.
        private static let setLimit: SetLimit? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prlimit") else { return nil }
            return unsafeBitCast(symbol, to: SetLimit.self)
        }()

        /// Sets the process's soft descriptor limit (`RLIMIT_NOFILE`) and returns the previous limits.
        static func setDescriptorLimit(_ pid: pid_t, soft: UInt) throws -> rlimit {
            guard let setLimit else { throw NetnsError(message: "no prlimit in this libc") }
            var old = rlimit()
            guard setLimit(pid, Int32(RLIMIT_NOFILE.rawValue), nil, &old) == 0 else {
                throw NetnsError(message: "prlimit \(pid): errno \(errno)")
            }
            var new = old
            new.rlim_cur = soft
            guard setLimit(pid, Int32(RLIMIT_NOFILE.rawValue), &new, nil) == 0 else {
                throw NetnsError(message: "prlimit \(pid): errno \(errno)")
            }
            return old
        }

        /// Restores limits returned by ``setDescriptorLimit(_:soft:)``.
        static func restoreDescriptorLimit(_ pid: pid_t, _ limits: rlimit) {
            var limits = limits
            _ = setLimit?(pid, Int32(RLIMIT_NOFILE.rawValue), &limits, nil)
        }
    }
#endif
