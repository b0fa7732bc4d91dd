/// The payload of the daemon's durable jobs: a command, where it runs, and its name.
public struct ShellJob: Codable, Sendable, Equatable {
    /// The durable kind the daemon registers for shell jobs.
    public static let kind = "shell"

    /// The command and its arguments.
    public var command: [String]
    /// The directory the command runs in.
    public var workingDirectory: String
    /// The name for listings.
    public var name: String

    /// Creates a payload.
    public init(command: [String], workingDirectory: String, name: String) {
        self.command = command
        self.workingDirectory = workingDirectory
        self.name = name
    }
}
