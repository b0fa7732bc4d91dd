import Foundation
import SyncGate
import Testing

@testable import SyncGateCLI

/// The exit status `submit --wait` reports for a failed job comes from the attempt's error when that
/// carries one, so a run the run log could not record (a full disk) still gives the command's status.
@Suite struct DaemonServiceOutcomeTests {
    @Test func theErrorCarriesTheCommandsStatus() {
        #expect(DaemonService.exitStatus(of: ShellJobRunner.CommandFailed(status: 3)) == 3)
        #expect(
            DaemonService.exitStatus(of: SyncJobError.doNotRetry(ShellJobRunner.CommandFailed(status: 4))) == 4)
        #expect(DaemonService.exitStatus(of: ChildProcess.SpawnError(command: "nope", code: ENOENT)) == 127)
        // Another job's failure, a timeout, a start that failed: no status of this job's command.
        let dependency = SyncJobError.dependencyDidNotSucceed(
            id: "j1", outcome: .failed(ShellJobRunner.CommandFailed(status: 3)))
        #expect(DaemonService.exitStatus(of: dependency) == nil)
        #expect(DaemonService.exitStatus(of: SyncJobError.runTimedOut) == nil)
        #expect(DaemonService.exitStatus(of: ShellJobRunner.StartFailed(reason: "no pipe")) == nil)
    }
}
