#if canImport(Foundation) && (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
    import Foundation

    /// The power backend on Apple platforms: Low Power Mode from `ProcessInfo` and its change notification.
    final class ApplePowerBackend: PlatformBackend {
        /// The broadcast that holds the status.
        let broadcast: StatusBroadcast<PowerStatus>
        // `NSObjectProtocol` is not `Sendable`; the token is only passed back to `removeObserver`.
        nonisolated(unsafe) private let notificationToken: any NSObjectProtocol

        /// Reads Low Power Mode and subscribes to its change notification.
        init() {
            let broadcast = StatusBroadcast(
                PowerStatus(isLowPowerModeEnabled: ProcessInfo.processInfo.isLowPowerModeEnabled))
            self.broadcast = broadcast
            notificationToken = NotificationCenter.default.addObserver(
                forName: .NSProcessInfoPowerStateDidChange, object: nil, queue: nil
            ) { _ in
                broadcast.update { $0.isLowPowerModeEnabled = ProcessInfo.processInfo.isLowPowerModeEnabled }
            }
        }

        /// `ProcessInfo` for Low Power Mode, defaults otherwise.
        var provenance: PowerProvenance {
            PowerProvenance(
                isLowPowerModeEnabled: .processInfo, isOnExternalPower: .defaultValue, batteryLevel: .defaultValue)
        }

        /// Removes the notification observer.
        func stop() {
            NotificationCenter.default.removeObserver(notificationToken)
        }
    }

    extension PowerObserver {
        /// Creates an observer of Low Power Mode (`ProcessInfo.isLowPowerModeEnabled`).
        public convenience init() {
            self.init(backend: ApplePowerBackend())
        }
    }
#endif
