#if os(Linux)
    import Foundation
    import Glibc
    import SyncGate

    /// Reads per-thread facts from `/proc/self/task`.
    enum ThreadCensus {
        /// Names the calling thread (at most 15 bytes); threads it creates inherit the name.
        static func nameCurrentThread(_ name: String) {
            DedicatedThread.nameCurrentThread(name)
        }

        /// The kernel id of the calling thread (from the `/proc/thread-self` link).
        static func currentThreadID() -> Int {
            var buffer = [CChar](repeating: 0, count: 64)
            let length = readlink("/proc/thread-self", &buffer, buffer.count - 1)
            guard length > 0 else { return -1 }
            let path = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return Int(path.split(separator: "/").last ?? "") ?? -1
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
        static func contextSwitches(of tid: Int, in process: String = "/proc/self") -> (
            voluntary: Int, involuntary: Int
        )? {
            guard let status = ProcessMemory.readText("\(process)/task/\(tid)/status") else { return nil }
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

        /// Every thread of a process (`/proc/self` or `/proc/PID`): its name and its voluntary and
        /// involuntary context switches so far, by thread id.
        static func census(of process: String = "/proc/self") -> [Int: (name: String, voluntary: Int, involuntary: Int)]
        {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "\(process)/task")) ?? []
            var result: [Int: (name: String, voluntary: Int, involuntary: Int)] = [:]
            for tid in tasks.compactMap(Int.init) {
                guard let switches = contextSwitches(of: tid, in: process) else { continue }
                let name =
                    ProcessMemory.readText("\(process)/task/\(tid)/comm")?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
                result[tid] = (name, switches.voluntary, switches.involuntary)
            }
            return result
        }

        /// The voluntary context switches of each thread between two censuses (a thread born in between
        /// counts from zero), without the threads in `excluding`, largest first.
        static func wakeups(
            from before: [Int: (name: String, voluntary: Int, involuntary: Int)],
            to after: [Int: (name: String, voluntary: Int, involuntary: Int)], excluding: Set<Int> = []
        ) -> [(tid: Int, name: String, count: Int)] {
            after.compactMap { tid, now -> (tid: Int, name: String, count: Int)? in
                guard !excluding.contains(tid) else { return nil }
                let count = now.voluntary - (before[tid]?.voluntary ?? 0)
                return count > 0 ? (tid, now.name, count) : nil
            }.sorted { $0.count > $1.count }
        }

        /// The system call a thread is blocked in (the first field of `/proc/…/syscall`), when readable.
        static func blockingSyscall(of tid: Int) -> String? {
            ProcessMemory.readText("/proc/self/task/\(tid)/syscall")?.split(separator: " ").first.map(String.init)
        }
    }
#endif
