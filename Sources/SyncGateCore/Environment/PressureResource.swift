/// A resource whose pressure stall information (PSI) the kernel reports: CPU, I/O or memory.
public enum PressureResource: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Tasks waiting for a CPU (`/proc/pressure/cpu`).
    case cpu
    /// Tasks waiting for I/O (`/proc/pressure/io`).
    case io
    /// Tasks waiting for memory: reclaim, refaults, swap-in (`/proc/pressure/memory`).
    case memory

    /// The name of the resource's file under `/proc/pressure`, and its spelling: `cpu`, `io`, `memory`.
    public var description: String { rawValue }
}
