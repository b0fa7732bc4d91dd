import SyncGate

/// What one invocation of `syncgate` asks for, as read by ``CommandLineParser``.
public enum Command: Sendable, Equatable {
    /// Print the help of the tool (`nil`) or of one subcommand.
    case help(Subcommand?)
    /// Print the version.
    case version
    /// Print the environment once.
    case status(json: Bool)
    /// Print one line per change of the environment until interrupted.
    case watch(json: Bool)
    /// Wait until requirements hold.
    case wait(WaitOptions)
    /// Run a command when requirements hold.
    case run(RunOptions)
    /// Run the demonstration.
    case demo(DemoOptions)
    /// Run the job service.
    case daemon(DaemonOptions)
    /// Queue a command with the daemon.
    case submit(DaemonRequest.Submission)
    /// List the daemon's jobs.
    case jobs(json: Bool, all: Bool)
    /// Cancel jobs: a ``DaemonRequest`` of type `cancel`.
    case cancel(DaemonRequest)
    /// Show a job's runs and output.
    case logs(id: String, json: Bool)
    /// Set an app condition in the daemon's environment.
    case setCondition(name: String, on: Bool)

    /// The subcommands, spelled as on the command line.
    public enum Subcommand: String, Sendable, CaseIterable {
        /// `syncgate status`.
        case status
        /// `syncgate watch`.
        case watch
        /// `syncgate wait`.
        case wait
        /// `syncgate run`.
        case run
        /// `syncgate demo`.
        case demo
        /// `syncgate daemon`.
        case daemon
        /// `syncgate submit`.
        case submit
        /// `syncgate jobs`.
        case jobs
        /// `syncgate cancel`.
        case cancel
        /// `syncgate logs`.
        case logs
        /// `syncgate set-condition`.
        case setCondition = "set-condition"
    }

    /// The options of `syncgate daemon`.
    public struct DaemonOptions: Sendable, Equatable {
        /// The default time running commands get to finish when the daemon stops.
        public static let defaultGracePeriod: Duration = .seconds(10)
        /// The default time between SIGTERM and SIGKILL.
        public static let defaultKillGrace: Duration = .seconds(5)

        /// The state directory; `nil` for ``DaemonPaths/stateDirectory(environment:)``.
        public var stateDirectory: String?
        /// The socket; `nil` for ``DaemonPaths/socketPath(environment:)``.
        public var socketPath: String?
        /// How long running commands may go on when the daemon stops, before SIGTERM.
        public var gracePeriod: Duration
        /// The time between SIGTERM and SIGKILL for a command the daemon stops.
        public var killGrace: Duration

        /// Creates the options.
        public init(
            stateDirectory: String? = nil, socketPath: String? = nil,
            gracePeriod: Duration = DaemonOptions.defaultGracePeriod,
            killGrace: Duration = DaemonOptions.defaultKillGrace
        ) {
            self.stateDirectory = stateDirectory
            self.socketPath = socketPath
            self.gracePeriod = gracePeriod
            self.killGrace = killGrace
        }
    }

    /// The options of `syncgate wait`.
    public struct WaitOptions: Sendable, Equatable {
        /// The requirements to wait for.
        public var requirements: SyncRequirements
        /// App-defined conditions to wait for; a lone `syncgate` process never sets any.
        public var conditions: Set<SyncCondition>
        /// How long to wait; `nil` waits until the requirements hold or a signal arrives, and zero answers
        /// from the current state without waiting.
        public var timeout: Duration?

        /// Creates the options.
        public init(requirements: SyncRequirements, conditions: Set<SyncCondition> = [], timeout: Duration? = nil) {
            self.requirements = requirements
            self.conditions = conditions
            self.timeout = timeout
        }
    }

    /// The options of `syncgate run`.
    public struct RunOptions: Sendable, Equatable {
        /// The default backoff before the first retry.
        public static let defaultBackoff: Duration = .seconds(1)
        /// The default time between SIGTERM and SIGKILL when the command is stopped.
        public static let defaultGracePeriod: Duration = .seconds(5)

        /// The requirements that must hold before the command starts.
        public var requirements: SyncRequirements
        /// App-defined conditions that must hold; a lone `syncgate` process never sets any.
        public var conditions: Set<SyncCondition>
        /// How long to wait for the requirements before the first start; `nil` waits indefinitely, and zero
        /// runs the command only if they hold now (else the run times out at once).
        public var timeout: Duration?
        /// How many times a failed command is run again.
        public var retries: Int
        /// The delay before the first retry; it doubles after each failure, up to 32 times this value.
        /// Zero retries at once.
        public var backoff: Duration
        /// Whether the command is stopped when the requirements stop holding and run again when they return.
        public var stopOnLoss: Bool
        /// How long a stopped command gets between SIGTERM and SIGKILL; zero sends SIGKILL right after
        /// SIGTERM.
        public var gracePeriod: Duration
        /// The command and its arguments.
        public var command: [String]

        /// Creates the options.
        public init(
            requirements: SyncRequirements,
            conditions: Set<SyncCondition> = [],
            timeout: Duration? = nil,
            retries: Int = 0,
            backoff: Duration = RunOptions.defaultBackoff,
            stopOnLoss: Bool = false,
            gracePeriod: Duration = RunOptions.defaultGracePeriod,
            command: [String]
        ) {
            self.requirements = requirements
            self.conditions = conditions
            self.timeout = timeout
            self.retries = retries
            self.backoff = backoff
            self.stopOnLoss = stopOnLoss
            self.gracePeriod = gracePeriod
            self.command = command
        }
    }

    /// The options of `syncgate demo`.
    public struct DemoOptions: Sendable, Equatable {
        /// How many times faster than real time the demo's timeline runs (1 for the normal pace).
        public var speed: Double
        /// Whether to print plain lines even when stdout is a terminal.
        public var plain: Bool

        /// Creates the options.
        public init(speed: Double = 1, plain: Bool = false) {
            self.speed = speed
            self.plain = plain
        }
    }
}
