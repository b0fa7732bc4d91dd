import Foundation
import SyncGateCLI
import Testing

/// The wait of `submit --wait` (``SubmitCommand/waitForOutcome(of:on:signals:errors:)``) on one end of a
/// socket pair, the test holding the daemon's end.
@Suite(.timeLimit(.minutes(1)))
struct SubmitWaitTests {
    /// A connected pair of stream sockets: the client's end and the daemon's.
    private struct Connection: ~Copyable {
        let client: Int32
        let daemon: Int32

        init() throws {
            var pair: [Int32] = [-1, -1]
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            try #require(socketpair(AF_UNIX, type, 0, &pair) == 0, "socketpair: errno \(errno)")
            client = pair[0]
            daemon = pair[1]
        }

        deinit {
            close(client)
            close(daemon)
        }
    }

    /// Runs the wait for job `j1` with `signals` and returns its status and what it wrote to stderr.
    private func wait(on client: Int32, signals: AsyncStream<Int32>) async -> (status: Int32, errors: [String]) {
        let (lines, errors) = AsyncStream.makeStream(of: String.self)
        let status = await SubmitCommand.waitForOutcome(of: "j1", on: client, signals: signals) { errors.yield($0) }
        errors.finish()
        return (status, await lines.reduce(into: []) { $0.append($1) })
    }

    /// SIGINT ends the wait with 130 and says nothing: the shut-down connection is the interruption's doing,
    /// not the daemon's. The daemon's end sees the client go (the job stays queued there).
    @Test func aSignalEndsTheWaitWithoutSayingTheDaemonStopped() async throws {
        let connection = try Connection()
        let (signals, sender) = AsyncStream.makeStream(of: Int32.self)
        sender.yield(SIGINT)
        let (status, errors) = await wait(on: connection.client, signals: signals)
        #expect(status == ExitCode.interrupted)
        #expect(errors.isEmpty)
        var byte: UInt8 = 0
        #expect(recv(connection.daemon, &byte, 1, 0) == 0)
    }

    /// A connection that ends without an outcome is the daemon stopping, and is said so.
    @Test func aConnectionEndingWithoutAnOutcomeSaysTheDaemonStopped() async throws {
        let connection = try Connection()
        let (signals, _) = AsyncStream.makeStream(of: Int32.self)
        shutdown(connection.daemon, Int32(SHUT_RDWR))
        let (status, errors) = await wait(on: connection.client, signals: signals)
        #expect(status == ExitCode.failure)
        #expect(errors == ["the daemon stopped before job j1 ended; it runs again when the daemon restarts"])
    }

    /// The outcome's line gives the exit status, and a job that did not succeed is named with its error.
    @Test func theOutcomeGivesTheExitStatus() async throws {
        let connection = try Connection()
        let (signals, _) = AsyncStream.makeStream(of: Int32.self)
        let line = DaemonProtocol.encodeLine(
            DaemonResponse(ok: true, error: "exit status 3", id: "j1", outcome: "failed", exitStatus: 3))
        #expect(line.withUnsafeBytes { send(connection.daemon, $0.baseAddress, $0.count, 0) } == line.count)
        let (status, errors) = await wait(on: connection.client, signals: signals)
        #expect(status == 3)
        #expect(errors == ["job j1 failed: exit status 3"])
    }

    /// The outcome's error is the daemon's text, which can hold a job's name or command: escaped for the
    /// terminal as the daemon's first answer is, so it cannot move the cursor or forge a line.
    @Test func theOutcomesTextIsEscapedForTheTerminal() async throws {
        let connection = try Connection()
        let (signals, _) = AsyncStream.makeStream(of: Int32.self)
        let line = DaemonProtocol.encodeLine(
            DaemonResponse(ok: true, error: "bad\u{1B}[2Jname\nforged", id: "j1", outcome: "failed", exitStatus: 1))
        #expect(line.withUnsafeBytes { send(connection.daemon, $0.baseAddress, $0.count, 0) } == line.count)
        let (_, errors) = await wait(on: connection.client, signals: signals)
        #expect(errors == ["job j1 failed: bad\\e[2Jname\\nforged"])
    }
}
