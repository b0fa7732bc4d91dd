import SyncGateCore
import SyncGateDurable

#if canImport(BackgroundTasks) && !os(macOS) && !os(watchOS)
    import BackgroundTasks

    /// The ``BackgroundTaskScheduling`` seam on `BGTaskScheduler.shared`.
    struct BGTaskSchedulerAdapter: BackgroundTaskScheduling {
        func submit(_ request: BackgroundTaskRequest) throws {
            let processing = BGProcessingTaskRequest(identifier: request.identifier)
            processing.requiresNetworkConnectivity = request.requiresNetworkConnectivity
            processing.requiresExternalPower = request.requiresExternalPower
            processing.earliestBeginDate = request.earliestBeginDate
            try BGTaskScheduler.shared.submit(processing)
        }

        func cancel(identifier: String) {
            BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: identifier)
        }
    }

    /// The ``BackgroundTaskRunning`` seam on one launched `BGTask`.
    final class BGTaskAdapter: BackgroundTaskRunning {
        // A BGTask may be used from any thread; the bridge sets its handler once and completes it once.
        private let task: UncheckedSendable<BGTask>

        init(_ task: BGTask) {
            self.task = UncheckedSendable(task)
        }

        func setExpirationHandler(_ handler: @escaping @Sendable () -> Void) {
            task.value.expirationHandler = handler
        }

        func setTaskCompleted(success: Bool) {
            task.value.setTaskCompleted(success: success)
        }
    }

    extension BackgroundSyncBridge {
        /// Creates a bridge on `BGTaskScheduler.shared` for the processing task `taskIdentifier`.
        ///
        /// - Parameters:
        ///   - taskIdentifier: the identifier listed under `BGTaskSchedulerPermittedIdentifiers`.
        ///   - gracePeriod: how long running jobs get to finish once the bridge stops.
        ///   - makeDurable: builds the environment, scheduler, store and durable scheduler, with every
        ///     job kind registered; called at each launch.
        public convenience init(
            taskIdentifier: String, gracePeriod: Duration = .seconds(2),
            makeDurable: @escaping @Sendable () throws -> DurableScheduler
        ) {
            self.init(
                taskIdentifier: taskIdentifier, taskScheduler: BGTaskSchedulerAdapter(), gracePeriod: gracePeriod,
                makeDurable: makeDurable)
        }

        /// Registers the launch handler with `BGTaskScheduler.shared`; call it before the app finishes
        /// launching. Returns `false` when the identifier is not permitted in Info.plist.
        @discardableResult
        public func register() -> Bool {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: taskIdentifier, using: nil) { task in
                let adapter = BGTaskAdapter(task)
                Task { await self.run(adapter) }
            }
        }
    }
#endif
