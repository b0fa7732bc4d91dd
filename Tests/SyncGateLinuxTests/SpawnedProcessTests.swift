#if os(Linux)
    import Foundation
    import SyncGateTesting
    import SyncGateTestSupport
    import Testing

    /// The test-side child process: what it inherits, and what a missed deadline reports.
    @Suite(.startsProcesses) struct SpawnedProcessTests {
        /// A descriptor the test process holds without close-on-exec (as Foundation's `Process` leaves one
        /// for each launch) is not passed on: a child holding another test's pipe would keep that test's
        /// reader waiting for an end of output long after its own child exited.
        @Test(.timeLimit(.minutes(1)))
        func theChildGetsOnlyItsPipes() throws {
            let stray = open("/dev/null", O_RDONLY)
            try #require(stray > 2)
            defer { close(stray) }
            let child = try SpawnedProcess(
                "/bin/sh", ["-c", "if [ -e /proc/self/fd/\(stray) ]; then echo inherited; else echo clean; fi"])
            defer { child.stop() }
            let (stdout, status) = try child.finish(before: .now + .seconds(30))
            #expect(stdout == "clean\n")
            #expect(status == 0)
        }

        /// A child that exits while something it started still holds its stdout is reported as such, naming
        /// the holder, rather than as a child that did not end.
        @Test(.timeLimit(.minutes(1)))
        func anExitedChildWhoseOutputIsHeldNamesTheHolder() throws {
            let child = try SpawnedProcess("/bin/sh", ["-c", "sleep 30 & echo $!"])
            defer { child.stop() }
            let holder = try #require(pid_t(try child.nextLine(within: .seconds(30))))
            defer { kill(holder, SIGKILL) }
            // The shell exits at once; its background sleep keeps stdout open.
            var info = siginfo_t()
            while waitid(P_PID, id_t(child.pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
            do {
                _ = try child.finish(before: .now + .milliseconds(200))
                Issue.record("the output of \(child.pid) ended while \(holder) held it")
            } catch let failure as SpawnedProcess.Failure {
                #expect(failure.message.contains("it exited (wait status 0)"), "\(failure.message)")
                #expect(failure.message.contains("\(holder) (sleep 30)"), "\(failure.message)")
                #expect(!failure.message.contains("threads of"), "\(failure.message)")
            }
        }

        /// A child that misses a deadline is reported with every thread's stack (when `gdb` is installed), so
        /// a stall seen once in CI can be told from a slow machine without reproducing it.
        @Test(
            .timeLimit(.minutes(1)),
            .enabled(
                if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb"),
                "gdb is not installed (`.ci/run` installs it): a report has no stacks to show without it"))
        func missedDeadlineReportsTheChildsStacks() throws {
            let child = try SpawnedProcess("/bin/sleep", ["30"])
            defer { child.stop() }
            do {
                _ = try child.nextLine(within: .milliseconds(100))
                Issue.record("sleep printed a line")
            } catch let failure as SpawnedProcess.Failure {
                #expect(failure.message.contains("threads of \(child.pid) at the deadline:"), "\(failure.message)")
                #expect(failure.message.contains("#0 "), "\(failure.message)")
            }
        }
    }
#endif
