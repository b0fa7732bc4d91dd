#if os(Linux)
    import Foundation
    import Glibc

    /// Reads per-thread facts from `/proc/self/task`.
    enum ThreadCensus {
        /// Names the calling thread (at most 15 bytes); threads it creates inherit the name.
        static func nameCurrentThread(_ name: String) {
            let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            guard file >= 0 else { return }
            defer { close(file) }
            _ = Array(name.utf8.prefix(15)).withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        }

        /// The ids of the process's threads named `name`.
        static func threads(named name: String) -> [Int] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.compactMap(Int.init).filter { tid in
                ProcessMemory.readText("/proc/self/task/\(tid)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines)
                    == name
            }.sorted()
        }

        /// A thread's voluntary and involuntary context switches so far.
        static func contextSwitches(of tid: Int) -> (voluntary: Int, involuntary: Int)? {
            guard let status = ProcessMemory.readText("/proc/self/task/\(tid)/status") else { return nil }
            var voluntary: Int?
            var involuntary: Int?
            for line in status.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let value = Int(parts[1].trimmingCharacters(in: .whitespaces))
                if parts[0] == "voluntary_ctxt_switches" { voluntary = value }
                if parts[0] == "nonvoluntary_ctxt_switches" { involuntary = value }
            }
            guard let voluntary, let involuntary else { return nil }
            return (voluntary, involuntary)
        }

        /// The system call a thread is blocked in (the first field of `/proc/…/syscall`), when readable.
        static func blockingSyscall(of tid: Int) -> String? {
            ProcessMemory.readText("/proc/self/task/\(tid)/syscall")?.split(separator: " ").first.map(String.init)
        }
    }
#endif
