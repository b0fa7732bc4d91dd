// The part of Apple's BackgroundTasks framework that BackgroundTasksAdapter.swift uses, written from the
// Apple documentation page above each declaration. Only ever emitted as an interface for the typecheck
// (Tools/AppleTypecheck/typecheck.sh); nothing here runs. Apple's BackgroundTasks re-exports Foundation.
@_exported import Foundation

/// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler
open class BGTaskScheduler: NSObject {
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/shared
    open class var shared: BGTaskScheduler { BGTaskScheduler() }

    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/register(fortaskwithidentifier:using:launchhandler:)
    ///
    /// The page spells the queue `dispatch_queue_t?`, which Swift on Apple platforms names `DispatchQueue?`.
    /// The launch handler is not `@Sendable`.
    open func register(
        forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
        launchHandler: @escaping (BGTask) -> Void
    ) -> Bool { false }

    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/submit(_:)
    ///
    /// Deprecated by the iOS 27 SDK in favour of `submitTaskRequest(_:completionHandler:)` (availability,
    /// which this stub does not express).
    open func submit(_ taskRequest: BGTaskRequest) throws {}

    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/cancel(taskrequestwithidentifier:)
    open func cancel(taskRequestWithIdentifier identifier: String) {}
}

/// https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest
open class BGTaskRequest: NSObject {
    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest/identifier
    open var identifier: String { "" }

    /// https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest/earliestbegindate
    open var earliestBeginDate: Date?
}

/// https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest
open class BGProcessingTaskRequest: BGTaskRequest {
    /// https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/init(identifier:)
    public init(identifier: String) {}

    /// https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/requiresnetworkconnectivity
    open var requiresNetworkConnectivity = false

    /// https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest/requiresexternalpower
    open var requiresExternalPower = false
}

/// https://developer.apple.com/documentation/backgroundtasks/bgtask
///
/// The page shows no `Sendable` conformance; the adapter holds the task in an `UncheckedSendable` box,
/// which compiles without a warning whether or not an SDK declares one.
open class BGTask: NSObject {
    /// https://developer.apple.com/documentation/backgroundtasks/bgtask/identifier
    open var identifier: String { "" }

    /// https://developer.apple.com/documentation/backgroundtasks/bgtask/expirationhandler
    ///
    /// Not `@Sendable`.
    open var expirationHandler: (() -> Void)?

    /// https://developer.apple.com/documentation/backgroundtasks/bgtask/settaskcompleted(success:)
    open func setTaskCompleted(success: Bool) {}
}
