/// The payload of the daemon's durable jobs: a command, where it runs, and its name.
package struct ShellJob: Codable, Sendable, Equatable {
    /// The durable kind the daemon registers for shell jobs.
    package static let kind = "shell"

    /// The command and its arguments.
    package var command: [String]
    /// The directory the command runs in.
    package var workingDirectory: String
    /// The name for listings.
    package var name: String

    /// Creates a payload.
    package init(command: [String], workingDirectory: String, name: String) {
        self.command = command
        self.workingDirectory = workingDirectory
        self.name = name
    }

    /// Checks that the payload can run: a command, and an absolute working directory, without NUL bytes
    /// (``DaemonRequest/Submission/checkCommand(_:workingDirectory:fields:)``, as a submission is checked).
    /// A restored payload is only decoded, so its job's runs check it first.
    ///
    /// - Throws: ``DaemonProtocolError`` naming the field (`payload.command`, `payload.workingDirectory`)
    ///   and the value.
    func validate() throws(DaemonProtocolError) {
        try DaemonRequest.Submission.checkCommand(command, workingDirectory: workingDirectory, fields: "payload.")
    }
}
