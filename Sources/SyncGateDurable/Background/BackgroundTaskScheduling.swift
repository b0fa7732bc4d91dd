/// The seam over `BGTaskScheduler`: submits and cancels processing-task requests.
///
/// The Apple conformance is `Platform/Apple/BackgroundTasksAdapter.swift`; tests use a fake that
/// records the requests.
package protocol BackgroundTaskScheduling: Sendable {
    /// `BGTaskScheduler.shared.submit(_:)` of a `BGProcessingTaskRequest` with the request's fields; it
    /// replaces an earlier request with the same identifier.
    func submit(_ request: BackgroundTaskRequest) throws
    /// `BGTaskScheduler.shared.cancel(taskRequestWithIdentifier:)`.
    func cancel(identifier: String)
}

/// The seam over one launched `BGTask`: its expiration handler and its completion.
package protocol BackgroundTaskRunning: Sendable {
    /// Sets `task.expirationHandler`; the system calls it shortly before it suspends the app.
    func setExpirationHandler(_ handler: @escaping @Sendable () -> Void)
    /// `task.setTaskCompleted(success:)`; called once.
    func setTaskCompleted(success: Bool)
}
