import SyncGate

/// `syncgate wait`: returns when the requirements hold, on timeout, or on a signal.
public enum WaitCommand {
    /// Waits and returns the exit status: 0 when the requirements hold, ``ExitCode/timedOut`` on timeout,
    /// 128 + N on signal N (130 for SIGINT).
    ///
    /// - Parameters:
    ///   - options: what to wait for and how long.
    ///   - environment: the environment to follow.
    ///   - signals: signals that end the wait.
    ///   - log: where explanations go (stderr in the tool).
    public static func execute(
        _ options: Command.WaitOptions,
        environment: SyncEnvironment,
        signals: AsyncStream<Int32>,
        log: @escaping @Sendable (String) -> Void
    ) async -> Int32 {
        await SignalRace.run(signals: signals) {
            do {
                _ = try await environment.waitUntil(
                    options.requirements,
                    conditions: options.conditions,
                    timeout: options.timeout
                )
                return ExitCode.success
            } catch SyncEnvironmentError.timedOut {
                let status = environment.status
                let timeout = options.timeout.map(DurationParser.format) ?? "?"
                log("timed out after \(timeout); still unmet: \(unmetText(options, status))")
                return ExitCode.timedOut
            } catch SyncEnvironmentError.cancelled {
                return nil
            } catch {
                log("\(error)")
                return ExitCode.failure
            }
        }
    }

    /// The requirements and conditions of `options` that do not hold in `status`.
    static func unmetText(_ options: Command.WaitOptions, _ status: SyncEnvironmentStatus) -> String {
        let requirements = status.unmetRequirements(options.requirements).names
        let conditions = status.unmetConditions(options.conditions).map { "condition \($0.name)" }.sorted()
        let all = requirements + conditions
        return all.isEmpty ? "nothing (they hold now)" : all.joined(separator: ", ")
    }
}
