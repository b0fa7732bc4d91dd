#if os(Linux)
    import Dispatch
    import Foundation
    import Glibc
    import SyncGate
    import Testing

    @testable import SyncGateCLI

    /// The daemon's copy of a run's output: waiting for it to end suspends the waiting task (the daemon's
    /// executors have one thread per CPU and never add one), and a deadline ends it even while a process
    /// that left the job still holds the pipe.
    @Suite(.timeLimit(.minutes(1)))
    struct CappedOutputTests {
        /// The file the output is copied to, removed afterwards.
        private func withOutput(_ body: (CappedOutput, String) async throws -> Void) async throws {
            let path = NSTemporaryDirectory() + "syncgate-capped-\(UUID().uuidString)"
            defer { unlink(path) }
            try await body(try CappedOutput(path: path, limit: 1 << 20), path)
        }

        /// A process that escaped the job holds the pipe's writing end: the wait for the copy to end
        /// blocked its thread (a semaphore), so on one worker no other task ran until the deadline. Now
        /// another task runs on that worker meanwhile, and the wait ends when the writing end closes.
        @Test func waitingForTheCopyLeavesTheThreadToOtherTasks() async throws {
            try await withOutput { output, path in
                let escaped = dup(output.writeEnd)
                output.closeWriteEnd()
                _ = "kept\n".withCString { write(escaped, $0, 5) }
                let executor = QuietTaskExecutor(workers: 1)
                let waiting = Task(executorPreference: executor) {
                    await output.finish(before: .distantFuture)
                }
                let ran = Task(executorPreference: executor) { true }
                #expect(await ran.value)
                close(escaped)
                await waiting.value
                let copied = try String(contentsOfFile: path, encoding: .utf8)
                #expect(copied == "kept\n")
            }
        }

        /// The deadline ends the copy while the writing end is still held: the descriptors are closed and
        /// the wait returns; what was written before was copied.
        @Test func theDeadlineEndsTheCopyWhileThePipeIsHeld() async throws {
            try await withOutput { output, path in
                let escaped = dup(output.writeEnd)
                defer { close(escaped) }
                output.closeWriteEnd()
                _ = "before\n".withCString { write(escaped, $0, 7) }
                await output.finish(before: .now())
                let copied = try String(contentsOfFile: path, encoding: .utf8)
                #expect(copied == "before\n")
                // The reading end is closed: the writing end reports an error.
                var entry = pollfd(fd: escaped, events: Int16(POLLOUT), revents: 0)
                #expect(poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLERR) != 0)
            }
        }

        /// A file that cannot be written (`/dev/full`: every write fails with ENOSPC, as on a full disk)
        /// ends the writing, not the copying: the command's output, more than the pipe holds, is still
        /// read (the command never blocks), and ``CappedOutput/writeFailure`` names the error. It was
        /// ignored: the failure was nowhere to be seen.
        @Test func aFileThatCannotBeWrittenIsReportedAndThePipeStillDrains() async throws {
            let output = try CappedOutput(path: "/dev/full", limit: 1 << 20)
            let command = dup(output.writeEnd)
            output.closeWriteEnd()
            // Four pipes' worth, written in full only if the copy keeps reading.
            let bytes = [UInt8](repeating: 0x61, count: 256 << 10)
            #expect(RunLog.writeAll(command, bytes) == nil)
            close(command)
            await output.finish(before: .distantFuture)
            let failure = try #require(output.writeFailure)
            #expect(failure.contains("No space left on device (errno \(ENOSPC))"), "\(failure)")
        }

        /// `writeAll` reports the error that stops it, as `SystemErrorText.described` spells it.
        @Test func writeAllReportsTheErrorThatStopsIt() throws {
            let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
            try #require(full >= 0)
            defer { close(full) }
            #expect(RunLog.writeAll(full, [UInt8]([1, 2, 3])) == "No space left on device (errno \(ENOSPC))")
        }
    }
#endif
