import SyncGate
import SyncGateCLI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ChildExitStatusTests {
    @Test(arguments: [
        (Int32(0), ChildExitStatus.exited(0), Int32(0), "exited with status 0"),
        (7 << 8, .exited(7), 7, "exited with status 7"),
        (255 << 8, .exited(255), 255, "exited with status 255"),
        (15, .signaled(15), 143, "killed by signal 15 (SIGTERM)"),
        (9, .signaled(9), 137, "killed by signal 9 (SIGKILL)"),
        (2 | 0x80, .signaled(2), 130, "killed by signal 2 (SIGINT)"),
        (34, .signaled(34), 162, "killed by signal 34"),
    ])
    func decodesWaitStatuses(raw: Int32, status: ChildExitStatus, code: Int32, text: String) {
        let decoded = ChildExitStatus(waitStatus: raw)
        #expect(decoded == status)
        #expect(decoded.exitCode == code)
        #expect(decoded.description == text)
    }
}
