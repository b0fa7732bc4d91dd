import Foundation
import SyncGateCLI
import Testing

/// The daemon's wire format: what it accepts, and a table of what it refuses, each naming the problem.
@Suite(.timeLimit(.minutes(1)))
struct DaemonProtocolTests {
    private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let malformed: [(input: [UInt8], message: String)] = [
        (bytes(""), "request is not JSON"),
        (bytes("{"), "request is not JSON"),
        (bytes("hello"), "request is not JSON"),
        (bytes("[1,2]"), "request is not a JSON object"),
        (bytes("\"jobs\""), "request is not a JSON object"),
        ([0xFF, 0xFE, 0x7B, 0x7D], "request is not valid UTF-8"),
        (bytes("{}"), "request has no integer field 'version'"),
        (bytes(#"{"version":"1","type":"jobs"}"#), "request has no integer field 'version'"),
        (bytes(#"{"version":true,"type":"jobs"}"#), "request has no integer field 'version'"),
        (bytes(#"{"version":2,"type":"jobs"}"#), "unsupported version 2 (this daemon speaks version 1)"),
        (bytes(#"{"version":0,"type":"jobs"}"#), "unsupported version 0 (this daemon speaks version 1)"),
        (bytes(#"{"version":1}"#), "request has no string field 'type'"),
        (bytes(#"{"version":1,"type":7}"#), "request has no string field 'type'"),
        (
            bytes(#"{"version":1,"type":"reboot"}"#),
            "unknown request type 'reboot' (one of submit, jobs, cancel, logs, setCondition)"
        ),
        (bytes(#"{"version":1,"type":"submit"}"#), "request 'submit' has no field 'submission'"),
        (
            bytes(#"{"version":1,"type":"submit","submission":{"command":["ls"]}}"#),
            "request 'submit' has no field 'workingDirectory'"
        ),
        (
            bytes(#"{"version":1,"type":"submit","submission":{"command":"ls"}}"#),
            "request 'submit' has a field of the wrong type at 'submission.command'"
        ),
        (
            bytes(
                #"{"version":1,"type":"submit","submission":{"command":[],"workingDirectory":"/","require":"none","#
                    + #""conditions":[],"tags":[],"retries":0,"stopOnLoss":false,"wait":false}}"#),
            "field 'submission.command' must name a command, got []"
        ),
        (
            bytes(
                #"{"version":1,"type":"submit","submission":{"command":["ls"],"workingDirectory":"tmp","#
                    + #""require":"none","conditions":[],"tags":[],"retries":0,"stopOnLoss":false,"wait":false}}"#),
            "field 'submission.workingDirectory' must be an absolute path, got 'tmp'"
        ),
        (
            bytes(
                #"{"version":1,"type":"submit","submission":{"command":["ls"],"workingDirectory":"/","#
                    + #""require":"none","conditions":[],"tags":[],"retries":-1,"stopOnLoss":false,"wait":false}}"#),
            "field 'submission.retries' must be from 0 to 1000, got -1"
        ),
        (bytes(#"{"version":1,"type":"cancel"}"#), "request 'cancel' needs exactly one of 'id', 'tag', 'uniqueKey'"),
        (
            bytes(#"{"version":1,"type":"cancel","id":"a","tag":"b"}"#),
            "request 'cancel' needs exactly one of 'id', 'tag', 'uniqueKey'"
        ),
        (bytes(#"{"version":1,"type":"cancel","id":""}"#), "request 'cancel' has an empty selector"),
        (bytes(#"{"version":1,"type":"logs"}"#), "request 'logs' has no field 'id'"),
        (bytes(#"{"version":1,"type":"jobs","all":"yes"}"#), "request 'jobs' has a field of the wrong type at 'all'"),
        (
            bytes(#"{"version":1,"type":"setCondition","on":true}"#),
            "request 'setCondition' has no non-empty field 'name'"
        ),
        (bytes(#"{"version":1,"type":"setCondition","name":"x"}"#), "request 'setCondition' has no field 'on'"),
        (
            [UInt8](repeating: UInt8(ascii: " "), count: DaemonProtocol.maximumRequestSize),
            "request of 65536 bytes exceeds the limit of 65536"
        ),
    ]

    @Test(arguments: malformed)
    func refusesMalformedRequestsNamingTheProblem(input: [UInt8], message: String) {
        #expect(throws: DaemonProtocolError(message)) { try DaemonProtocol.decodeRequest(input) }
    }

    static let wellFormed: [DaemonRequest] = [
        .jobs(all: true),
        .cancel(.id("abc#1")),
        .cancel(.tag("photos")),
        .cancel(.uniqueKey("backup")),
        .logs(id: "abc#1", stream: false),
        .setCondition(name: "charging-window", on: false),
        .submit(
            DaemonRequest.Submission(
                command: ["rsync", "-a", "a b", "dest:"], workingDirectory: "/home/me", name: "backup",
                require: "unmetered,external-power", conditions: ["c"], tags: ["t"], uniqueKey: "backup",
                onDuplicate: "replace", delay: "1s", deadline: "1h", timeout: "10m", retries: 3, backoff: "2s",
                every: "1h", flex: "10m", stopOnLoss: true, wait: false)),
    ]

    @Test(arguments: wellFormed)
    func encodedRequestsDecodeToThemselves(request: DaemonRequest) throws {
        var line = DaemonProtocol.encodeLine(request)
        #expect(line.last == UInt8(ascii: "\n"))
        line.removeLast()
        #expect(!line.contains(UInt8(ascii: "\n")))
        #expect(try DaemonProtocol.decodeRequest(line) == request)
    }

    @Test func aRequestJustUnderTheLimitIsRead() throws {
        // A long argument (ids and other labels have limits of their own, DaemonLimits).
        let head = #"{"version":1,"type":"submit","submission":{"command":["echo",""#
        let tail =
            #""],"workingDirectory":"/","require":"none","conditions":[],"tags":[],"retries":0,"#
            + #""stopOnLoss":false,"wait":false}}"#
        let text = String(repeating: "x", count: DaemonProtocol.maximumRequestSize - 1 - head.count - tail.count)
        let request = try DaemonProtocol.decodeRequest(Array((head + text + tail).utf8))
        #expect(request.submission?.command == ["echo", text])
    }

    @Test func responsesOfAnotherVersionAreRefused() throws {
        #expect(throws: DaemonProtocolError("the daemon speaks version 2, this client 1")) {
            try DaemonProtocol.decodeResponse(Array(#"{"version":2,"ok":true}"#.utf8))
        }
        #expect(throws: DaemonProtocolError("the daemon's answer is not a response")) {
            try DaemonProtocol.decodeResponse(Array("nonsense".utf8))
        }
        var line = DaemonProtocol.encodeLine(DaemonResponse(ok: true, id: "x#1"))
        line.removeLast()
        #expect(try DaemonProtocol.decodeResponse(line) == DaemonResponse(ok: true, id: "x#1"))
    }
}
