#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pipe that holds a launched command back until the daemon has recorded its run
/// (``JobLauncher/launchGate``).
///
/// Both ends are close-on-exec, so no other program started meanwhile inherits either; the spawn hands
/// the read end to the launcher as its descriptor 3. ``open()`` writes the one byte that lets the
/// launcher go on; ``close()`` (after `open()`, or instead of it when the run is not wanted) closes both
/// ends, which the launcher sees as an end of file, and does nothing when called again. Used by one
/// task.
package final class LaunchGate: @unchecked Sendable {
    /// The read end, for the spawn.
    package let readEnd: Int32
    private var writeEnd: Int32
    /// Whether ``close()`` has closed both ends.
    private var closed = false

    /// Makes the pipe; `nil` (with `errno` set) when the process has no descriptor left.
    package init?() {
        guard let pipe = CloseOnExecPipe.make() else { return nil }
        readEnd = pipe.read
        writeEnd = pipe.write
    }

    /// Lets the launcher go on: writes its byte and closes the write end.
    package func open() {
        guard writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        var written: Int
        repeat { written = write(writeEnd, &byte, 1) } while written < 0 && errno == EINTR
        closeDescriptor(writeEnd)
        writeEnd = -1
    }

    /// Closes what is still open; a launcher still waiting ends with 125. Once closed, does nothing.
    package func close() {
        guard !closed else { return }
        if writeEnd >= 0 { closeDescriptor(writeEnd) }
        closeDescriptor(readEnd)
        writeEnd = -1
        closed = true
    }
}

/// `close(2)`, under a name the gate's own `close()` does not hide.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
