import Foundation
import SyncGate
import SyncGateCLI
import SyncGateTesting
import Testing

/// `run` and `wait` in this process, on a hand-set environment, with real child processes.
@Suite(.timeLimit(.minutes(1)))
struct RunCommandTests {
    /// A FIFO the child writes a line to when it has started; `nextLine()` waits for it on a plain thread.
    private struct StartSignal {
        let path: String

        init() throws {
            path = NSTemporaryDirectory() + "syncgate-cli-\(UUID().uuidString).fifo"
            guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }

        func nextLine() async -> String {
            await withCheckedContinuation { continuation in
                let path = path
                Thread.detachNewThread {
                    let handle = FileHandle(forReadingAtPath: path)
                    let data = handle?.readDataToEndOfFile() ?? Data()
                    continuation.resume(returning: String(decoding: data, as: UTF8.self))
                }
            }
        }

        func remove() {
            unlink(path)
        }
    }

    @Test func stopOnLossStopsTheCommandAndRunsItAgainWhenRequirementsReturn() async throws {
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), monitoring: [.network])
        let started = try StartSignal()
        defer { started.remove() }
        let marker = NSTemporaryDirectory() + "syncgate-cli-\(UUID().uuidString).marker"
        defer { unlink(marker) }
        // First run: leave a marker, say so, and sleep until stopped. Second run: succeed at once.
        let script = #"if [ -e "$1" ]; then exit 0; fi; touch "$1"; echo started > "$2"; exec sleep 30"#
        let options = RunCommand(
            requirements: .network, stopOnLoss: true, gracePeriod: .seconds(5),
            command: ["sh", "-c", script, "sh", marker, started.path])
        let (logLines, log) = AsyncStream.makeStream(of: String.self)
        let (signals, _) = AsyncStream.makeStream(of: Int32.self)
        let run = Task {
            await RunCommand.execute(options, environment: manual.environment, signals: signals) { log.yield($0) }
        }
        #expect(await started.nextLine() == "started\n")
        manual.setConnectivity(.disconnected)
        var lines: [String] = []
        for await line in logLines {
            lines.append(line)
            if line.hasPrefix("requirements lost") { break }
        }
        manual.setConnectivity(.connected(via: .wifi))
        #expect(await run.value == 0)
        #expect(lines.last == "requirements lost (network); sh was stopped and runs again when they hold")
    }

    @Test func aForwardedSignalEndsTheRunWithTheCommandsStatus() async throws {
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), monitoring: [.network])
        let started = try StartSignal()
        defer { started.remove() }
        let options = RunCommand(
            requirements: .network, retries: 3,
            command: ["sh", "-c", #"echo started > "$1"; exec sleep 30"#, "sh", started.path])
        let (signals, sender) = AsyncStream.makeStream(of: Int32.self)
        let run = Task {
            await RunCommand.execute(options, environment: manual.environment, signals: signals) { _ in }
        }
        #expect(await started.nextLine() == "started\n")
        sender.yield(SIGTERM)
        #expect(await run.value == ExitCode.terminated)
    }

    @Test func aSignalWhileWaitingEndsTheRun() async throws {
        let manual = ManualSyncEnvironment(monitoring: [.network])
        let (signals, sender) = AsyncStream.makeStream(of: Int32.self)
        let options = RunCommand(requirements: .network, command: ["true"])
        let run = Task {
            await RunCommand.execute(options, environment: manual.environment, signals: signals) { _ in }
        }
        sender.yield(SIGINT)
        #expect(await run.value == ExitCode.interrupted)
    }

    /// `--timeout 0s` answers from the current state, for `wait` and `run` alike: go on if the
    /// requirements hold now, time out at once if not.
    @Test(arguments: [
        (ConnectivityStatus.connected(via: .wifi), Int32(0)), (.disconnected, ExitCode.timedOut),
    ])
    func aZeroTimeoutAnswersFromTheCurrentState(connectivity: ConnectivityStatus, expected: Int32) async throws {
        let manual = ManualSyncEnvironment(connectivity: connectivity, monitoring: [.network])
        let (signals, _) = AsyncStream.makeStream(of: Int32.self)
        let marker = NSTemporaryDirectory() + "syncgate-cli-\(UUID().uuidString).marker"
        defer { unlink(marker) }
        let logged = LockedLines()
        let run = await RunCommand.execute(
            .init(requirements: .network, timeout: .zero, command: ["touch", marker]),
            environment: manual.environment, signals: signals, log: logged.append)
        #expect(run == expected)
        #expect(FileManager.default.fileExists(atPath: marker) == (expected == 0))
        let wait = await WaitCommand.execute(
            .init(requirements: .network, timeout: .zero), environment: manual.environment, signals: signals,
            log: logged.append)
        #expect(wait == expected)
        #expect(
            logged.lines
                == (expected == 0
                    ? []
                    : [
                        "timed out after 0s before running touch; still unmet: network",
                        "timed out after 0s; still unmet: network",
                    ]))
    }

    /// While disconnected, the network in use that an allowed network is not is `none`, as `status`
    /// shows it, not the unknown network of a disconnected status.
    @Test func anAllowedNetworkUnmetWhileDisconnectedNamesNone() async throws {
        let manual = ManualSyncEnvironment(connectivity: .disconnected, monitoring: [.network])
        let (signals, _) = AsyncStream.makeStream(of: Int32.self)
        let logged = LockedLines()
        let wait = await WaitCommand.execute(
            .init(requirements: .network, timeout: .zero, allowedNetworks: SyncNetworkAllowlist([.ssid("Home")])),
            environment: manual.environment, signals: signals, log: logged.append)
        #expect(wait == ExitCode.timedOut)
        #expect(logged.lines == ["timed out after 0s; still unmet: network, network ssid:Home (in use: none)"])
    }

    @Test func aZeroBackoffRetriesAtOnce() async throws {
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), monitoring: [.network])
        let (signals, _) = AsyncStream.makeStream(of: Int32.self)
        let attempts = NSTemporaryDirectory() + "syncgate-cli-\(UUID().uuidString).attempts"
        defer { unlink(attempts) }
        let status = await RunCommand.execute(
            .init(
                requirements: .network, retries: 2, backoff: .zero,
                command: ["sh", "-c", #"echo attempt >> "$1"; exit 3"#, "sh", attempts]),
            environment: manual.environment, signals: signals
        ) { _ in }
        #expect(status == 3)
        #expect(try String(contentsOfFile: attempts, encoding: .utf8) == "attempt\nattempt\nattempt\n")
    }

    @Test func waitReturnsWhenTheRequirementsHold() async throws {
        let manual = ManualSyncEnvironment(monitoring: [.network])
        let (signals, _) = AsyncStream.makeStream(of: Int32.self)
        let wait = Task {
            await WaitCommand.execute(
                .init(requirements: .largeTransfer), environment: manual.environment, signals: signals
            ) { _ in }
        }
        manual.setConnectivity(.connected(via: .wiredEthernet))
        #expect(await wait.value == 0)
    }

    @Test func waitEndsOnSIGINTWith130() async throws {
        let manual = ManualSyncEnvironment(monitoring: [.network])
        let (signals, sender) = AsyncStream.makeStream(of: Int32.self)
        let wait = Task {
            await WaitCommand.execute(.init(requirements: .network), environment: manual.environment, signals: signals)
            { _ in }
        }
        sender.yield(SIGINT)
        #expect(await wait.value == 130)
    }
}

/// Log lines collected from any thread.
private final class LockedLines: Sendable {
    private let state = LockedState<[String]>([])

    /// The lines so far.
    var lines: [String] { state.withLock { $0 } }

    /// Adds a line.
    @Sendable func append(_ line: String) {
        state.withLock { $0.append(line) }
    }
}
