import Foundation
import SyncGate
import SyncGateCLI
import SyncGateTestSupport
import SyncGateTesting
import Testing

/// Runs the built `syncgate` binary. Real-time waits stay at about a second at most.
@Suite(.startsProcesses, .timeLimit(.minutes(1)))
struct EndToEndTests {
    private func object(_ text: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(value as? [String: Any])
    }

    @Test func statusJSONMatchesTheLibrary() async throws {
        let result = try await ToolProcess.run(["status", "--json"])
        #expect(result.status == 0)
        let json = try object(result.stdout)
        let status = SyncEnvironment(monitoring: .default).status
        #expect(json["schemaVersion"] as? Int == 1)
        let network = try #require(json["network"] as? [String: Any])
        #expect(network["connected"] as? Bool == status.connectivity.isConnected)
        #expect(network["interface"] as? String == status.connectivity.interface.description)
        #expect(network["expensive"] as? Bool == status.connectivity.isExpensive)
        #expect(network["monitored"] as? Bool == status.monitoredParts.contains(.network))
        let power = try #require(json["power"] as? [String: Any])
        #expect(power["externalPower"] as? Bool == status.power.isOnExternalPower)
        #expect(power["lowPowerMode"] as? Bool == status.power.isLowPowerModeEnabled)
        #expect((power["batteryLevel"] as? Double) == status.power.batteryLevel)
        #expect(json["met"] as? [String] == status.satisfiedRequirements.names)
        #expect(json["treatedAsMet"] as? [String] == status.requirementsTreatedAsMet.names)
        let requirements = try #require(json["requirements"] as? [[String: Any]])
        #expect(requirements.compactMap { $0["name"] as? String } == SyncRequirements.members.map(\.name))
        let sources = try #require(json["sources"] as? [String: Any])
        let fields = try #require(sources["fields"] as? [String: String])
        #if os(Linux)
            #expect(fields["connected"] == "rtnetlink")
            #expect(fields["battery"] == "sysfs power_supply")
        #endif
        #expect(fields["free space"] == "statvfs")
        #if os(Linux)
            #expect(fields["network interface"] == "rtnetlink")
            #expect(network["interfaceName"] as? String == status.connectivity.network.interfaceName)
            // Pressure and heat: PSI and thermal zones, or `unavailable` where this machine lacks them.
            #expect(["PSI /proc/pressure", "unavailable"].contains(fields["pressure"]))
            #expect(["sysfs thermal_zone", "unavailable"].contains(fields["heat"]))
            #expect(fields.count == 16)
        #else
            #expect(fields.count == 14)
        #endif
        #expect(fields["metered"] == fields["expensive"])
        let storage = try #require(json["storage"] as? [String: Any])
        #expect(storage["monitored"] as? Bool == true)
        #expect((storage["availableBytes"] as? Int ?? 0) > 0)
    }

    @Test func statusTextSaysWhatIsNotMonitored() async throws {
        let result = try await ToolProcess.run(["status"], environment: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("\u{1B}["))
        #if os(Linux)
            #expect(result.stdout.contains("account         not monitored, treated as met"))
        #endif
    }

    /// Account and cloud drive have no source on Linux, so their requirements hold on any machine.
    @Test(arguments: [["none"], ["account-ready,cloud-drive"]])
    func waitOnRequirementsThatHoldExitsAtOnce(list: [String]) async throws {
        #if os(Linux)
            let result = try await ToolProcess.run(["wait", "--require"] + list + ["--timeout", "10s"])
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty)
            #expect(result.elapsed < .seconds(5))
        #endif
    }

    @Test func waitTimesOutOnAConditionNobodySets() async throws {
        let result = try await ToolProcess.run([
            "wait", "--require", "none", "--condition", "never-set", "--timeout", "300ms",
        ])
        #expect(result.status == ExitCode.timedOut)
        #expect(result.stderr == "syncgate: timed out after 300ms; still unmet: condition never-set\n")
        #expect(result.elapsed >= .milliseconds(300))
    }

    @Test func runPassesThroughTheExitStatusAndArguments() async throws {
        let result = try await ToolProcess.run(
            ["run", "--require", "none", "--", "sh", "-c", #"printf '<%s>' "$@"; exit 7"#, "sh", "a b", " c ", ""])
        #expect(result.status == 7)
        #expect(result.stdout == "<a b>< c ><>")
        #expect(result.stderr.isEmpty)
    }

    /// Bytes that are not UTF-8 in a command's arguments reach it as given: Swift's decoding of the
    /// arguments made each one U+FFFD, and the command ran with other bytes.
    @Test func runPassesArgumentsThatAreNotUTF8ByteForByte() async throws {
        let argument = SystemBytes.text(of: [0x61, 0xFF, 0x62, 0xE2, 0x82])
        let result = try await ToolProcess.run(
            ["run", "--require", "none", "--", "sh", "-c", #"printf '%s' "$1" | od -An -tx1"#, "sh", argument])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } == [
                "61", "ff", "62", "e2", "82",
            ])
    }

    @Test func runRetriesAFailingCommand() async throws {
        let result = try await ToolProcess.run(
            [
                "run", "--require", "none", "--retries", "2", "--backoff", "10ms", "--", "sh", "-c",
                "echo attempt; exit 3",
            ])
        #expect(result.status == 3)
        #expect(result.stdout == "attempt\nattempt\nattempt\n")
        #expect(
            result.stderr == """
                syncgate: sh exited with status 3; attempt 2 of 3 in 10ms
                syncgate: starting sh (attempt 2 of 3)
                syncgate: sh exited with status 3; attempt 3 of 3 in 20ms
                syncgate: starting sh (attempt 3 of 3)

                """)
    }

    #if os(Linux)
        /// `run` killed by SIGKILL, which it cannot catch, takes its command with it: the command holds the
        /// run's stdout and stderr, so they end only once it is gone too.
        @Test func aRunKilledOutrightTakesItsCommandWithIt() throws {
            let tool = try #require(ToolProcess.path, "the syncgate executable was not found")
            let run = try SpawnedProcess(
                tool, ["run", "--require", "none", "--", "sh", "-c", "echo $$; exec sleep 600"])
            defer { run.stop() }
            run.closeInput()
            let line = try run.nextLine(within: .seconds(20))
            let command = try #require(pid_t(line), "not a process id: \(line)")
            #expect(command != run.pid)
            kill(run.pid, SIGKILL)
            let (rest, status) = try run.finish(before: .now + .seconds(20))
            #expect(status == 128 + SIGKILL)
            #expect(rest.isEmpty)
        }
    #endif

    /// A name no directory of `PATH` has as a file is not found (127), as a shell says: an empty name,
    /// and a name that is only a directory's (`share` is `/usr/share`, with `/usr` on `PATH`).
    @Test(arguments: [
        ("no-such-command-syncgate", "no-such-command-syncgate: command not found"),
        ("", "'': command not found"),
        ("share", "share: command not found"),
    ])
    func runReportsAMissingCommand(command: String, message: String) async throws {
        let result = try await ToolProcess.run(
            ["run", "--require", "none", "--", command], environment: ["PATH": "/usr:/usr/bin:/bin"])
        #expect(result.status == ExitCode.commandNotFound)
        #expect(result.stderr == "syncgate: \(message)\n")
    }

    @Test func runTimesOutBeforeStarting() async throws {
        let result = try await ToolProcess.run(
            ["run", "--require", "none", "--condition", "never-set", "--timeout", "200ms", "--", "echo", "ran"])
        #expect(result.status == ExitCode.timedOut)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasSuffix(
                "syncgate: timed out after 200ms before running echo; still unmet: condition never-set\n"))
    }

    @Test func runForwardsSIGINTToTheCommand() async throws {
        let result = try await ToolProcess.run(
            ["run", "--require", "none", "--retries", "3", "--", "sh", "-c", "echo ready; exec sleep 30"],
            signalAfterFirstLine: SIGINT)
        #expect(result.status == 130)
        #expect(result.stdout == "ready\n")
        #expect(result.elapsed < .seconds(20))
    }

    /// SIGHUP (a terminal or session that closed) reaches the command, which ends the run with its own
    /// status; `run` died of it before, and its command with it.
    @Test func runForwardsSIGHUPToTheCommand() async throws {
        let result = try await ToolProcess.run(
            [
                "run", "--require", "none", "--", "sh", "-c",
                #"trap "exit 7" HUP; echo ready; while :; do sleep 0.05; done"#,
            ],
            signalAfterFirstLine: SIGHUP)
        #expect(result.status == 7)
        #expect(result.stdout == "ready\n")
    }

    @Test func watchPrintsUntilInterrupted() async throws {
        let result = try await ToolProcess.run(["watch", "--json"], signalAfterFirstLine: SIGINT)
        #expect(result.status == ExitCode.interrupted)
        let first = try #require(result.stdout.split(separator: "\n").first)
        #expect(try object(String(first))["schemaVersion"] as? Int == 1)
    }

    /// `watch | head -1`: once nobody reads its output, `watch` ends at once with SIGPIPE's status (141),
    /// instead of at its next line, which an idle machine may not print for hours.
    @Test func watchEndsWhenItsReaderGoesAway() async throws {
        let result = try await ToolProcess.run(["watch"], closeOutputAfterFirstLine: true, deadline: .seconds(20))
        #expect(result.status == ExitCode.signaled(SIGPIPE))
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    /// The binary installs SyncGate's quiet executors (Linux): its tasks run on `sg-pool-*` threads, sleeps
    /// are kept by `sg-timer`, signals read by `sg-signals`, so an idle `watch` makes no wake-up (the
    /// benchmark harness's scenario 11 counts them).
    @Test func watchRunsOnTheQuietExecutors() async throws {
        let result = try await ToolProcess.run(["watch"], signalAfterFirstLine: SIGINT)
        #expect(result.status == ExitCode.interrupted)
        #if os(Linux)
            for name in ["sg-pool-0", "sg-pool-1", "sg-timer", "sg-signals", "sg-netlink"] {
                #expect(result.threadNames.contains(name), "threads: \(result.threadNames)")
            }
        #endif
    }

    @Test(arguments: [
        ["wait"], ["run", "--require", "network"], ["status", "--jsn"], ["bogus"],
        ["wait", "--require", "none", "--timeout", "-1s"], ["run", "--require", "none", "--grace=-1s", "--", "true"],
        ["run", "--require", "validated-internet,nope", "--", "true"],
    ])
    func usageErrorsAreOneLineWithStatus2(arguments: [String]) async throws {
        let result = try await ToolProcess.run(arguments)
        #expect(result.status == ExitCode.usage)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("syncgate: "))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func aNegativeDurationIsRefusedNamingTheOptionAndTheValue() async throws {
        let result = try await ToolProcess.run(["run", "--require", "none", "--timeout", "-1s", "--", "true"])
        #expect(result.status == ExitCode.usage)
        #expect(
            result.stderr
                == "syncgate: invalid duration '-1s' for --timeout: must not be negative (see 'syncgate run --help')\n")
    }

    /// `--timeout 0s` answers from the current state for `run` as for `wait`.
    @Test func runWithAZeroTimeoutAnswersAtOnce() async throws {
        let ran = try await ToolProcess.run(["run", "--require", "none", "--timeout", "0s", "--", "echo", "ran"])
        #expect(ran.status == 0)
        #expect(ran.stdout == "ran\n")
        let refused = try await ToolProcess.run(
            ["run", "--require", "none", "--condition", "never-set", "--timeout", "0s", "--", "echo", "ran"])
        #expect(refused.status == ExitCode.timedOut)
        #expect(refused.stdout.isEmpty)
        #expect(
            refused.stderr == "syncgate: timed out after 0s before running echo; still unmet: condition never-set\n")
    }

    @Test(arguments: [
        ["--help"], ["status", "--help"], ["watch", "-h"], ["wait", "--help"], ["run", "--help"], ["help", "demo"],
    ])
    func helpIsPrinted(arguments: [String]) async throws {
        let result = try await ToolProcess.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE"))
    }

    @Test func demoCompletes() async throws {
        let result = try await ToolProcess.run(["demo", "--speed", "20"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Summary after"))
        for id in ["migrate-database", "crash-reports", "shared-album", "export-logs"] {
            #expect(result.stdout.contains("  \(id) "))
        }
        #expect(result.stdout.contains("export-logs       cancelled: the support ticket was closed"))
        #expect(result.stdout.contains("shared-album      expired: not started within 6.0s"))
    }
}
