import SyncGateCore

#if canImport(Foundation) && (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
    import Foundation
    #if canImport(UIKit) && (os(iOS) || os(visionOS))
        import UIKit
    #elseif os(macOS) && canImport(IOKit)
        import IOKit.ps
    #endif

    /// The ``PowerFactsReading`` seam: Low Power Mode from `ProcessInfo` everywhere; the battery from
    /// `UIDevice` on iOS, iPadOS and visionOS, IOKit's power sources on macOS, none on watchOS and tvOS.
    final class ApplePowerFactsReader: PowerFactsReading {
        // Written once by `startObserving`, read once by `stopObserving` (the follower calls them in order).
        nonisolated(unsafe) private var tokens: [any NSObjectProtocol] = []

        func startObserving(_ onChange: @escaping @Sendable () -> Void) {
            Self.setBatteryMonitoring(true)
            tokens = ([.NSProcessInfoPowerStateDidChange] + Self.batteryNotifications).map { name in
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { _ in onChange() }
            }
            startPowerSourceNotifications(onChange)
        }

        func stopObserving() {
            for token in tokens { NotificationCenter.default.removeObserver(token) }
            stopPowerSourceNotifications()
            Self.setBatteryMonitoring(false)
        }

        #if canImport(UIKit) && (os(iOS) || os(visionOS))
            let batteryOrigin = StatusOrigin.uiDevice
            private static let batteryNotifications: [Notification.Name] = [
                UIDevice.batteryStateDidChangeNotification, UIDevice.batteryLevelDidChangeNotification,
            ]

            func read() -> ApplePowerFacts {
                let (state, level) = Self.onMain { (UIDevice.current.batteryState, UIDevice.current.batteryLevel) }
                let mirror: BatteryStateMirror =
                    switch state {
                    case .unknown: .unknown
                    case .unplugged: .unplugged
                    case .charging: .charging
                    case .full: .full
                    @unknown default: .unknown
                    }
                return ApplePowerFacts(
                    isLowPowerModeEnabled: ProcessInfo.processInfo.isLowPowerModeEnabled,
                    battery: .device(state: mirror, level: level))
            }

            /// Battery monitoring is on only while the source observes (it costs energy).
            private static func setBatteryMonitoring(_ enabled: Bool) {
                onMain { UIDevice.current.isBatteryMonitoringEnabled = enabled }
            }

            /// Runs `body` on the main actor, where `UIDevice` lives.
            private static func onMain<T: Sendable>(_ body: @MainActor () -> T) -> T {
                if Thread.isMainThread { return MainActor.assumeIsolated(body) }
                return DispatchQueue.main.sync { MainActor.assumeIsolated(body) }
            }

            private func startPowerSourceNotifications(_ onChange: @escaping @Sendable () -> Void) {}
            private func stopPowerSourceNotifications() {}
        #elseif os(macOS) && canImport(IOKit)
            let batteryOrigin = StatusOrigin.ioKitPowerSources
            private static let batteryNotifications: [Notification.Name] = []
            // The run-loop source of IOKit's power-source notification and its retained callback box.
            nonisolated(unsafe) private var runLoopSource: CFRunLoopSource?
            nonisolated(unsafe) private var callback: Unmanaged<PowerSourceCallback>?

            func read() -> ApplePowerFacts {
                let info = IOPSCopyPowerSourcesInfo().takeRetainedValue()
                let providing = IOPSGetProvidingPowerSourceType(info)?.takeUnretainedValue() as String?
                let list = IOPSCopyPowerSourcesList(info).takeRetainedValue() as Array
                let batteries = list.compactMap { source -> ApplePowerFacts.Capacity? in
                    guard
                        let found = IOPSGetPowerSourceDescription(info, source as CFTypeRef)?.takeUnretainedValue(),
                        let description = found as? [String: Any],
                        description[kIOPSTypeKey] as? String == kIOPSInternalBatteryType,
                        let current = description[kIOPSCurrentCapacityKey] as? Int,
                        let maximum = description[kIOPSMaxCapacityKey] as? Int
                    else { return nil }
                    return ApplePowerFacts.Capacity(current: current, maximum: maximum)
                }
                return ApplePowerFacts(
                    isLowPowerModeEnabled: ProcessInfo.processInfo.isLowPowerModeEnabled,
                    battery: .powerSources(
                        providing: PowerSourceTypeMirror(ioKitValue: providing), batteries: batteries))
            }

            private static func setBatteryMonitoring(_ enabled: Bool) {}

            private func startPowerSourceNotifications(_ onChange: @escaping @Sendable () -> Void) {
                let box = Unmanaged.passRetained(PowerSourceCallback(onChange))
                callback = box
                let created = IOPSNotificationCreateRunLoopSource(
                    { context in
                        guard let context else { return }
                        Unmanaged<PowerSourceCallback>.fromOpaque(context).takeUnretainedValue().onChange()
                    }, box.toOpaque())
                guard let source = created?.takeRetainedValue() else { return }
                CFRunLoopAddSource(CFRunLoopGetMain(), source, .defaultMode)
                runLoopSource = source
            }

            private func stopPowerSourceNotifications() {
                if let runLoopSource { CFRunLoopRemoveSource(CFRunLoopGetMain(), runLoopSource, .defaultMode) }
                callback?.release()
            }
        #else
            let batteryOrigin = StatusOrigin.defaultValue
            private static let batteryNotifications: [Notification.Name] = []

            func read() -> ApplePowerFacts {
                ApplePowerFacts(isLowPowerModeEnabled: ProcessInfo.processInfo.isLowPowerModeEnabled, battery: .none)
            }

            private static func setBatteryMonitoring(_ enabled: Bool) {}
            private func startPowerSourceNotifications(_ onChange: @escaping @Sendable () -> Void) {}
            private func stopPowerSourceNotifications() {}
        #endif
    }

    #if os(macOS) && canImport(IOKit)
        /// The change callback IOKit's C notification reaches through its context pointer.
        final class PowerSourceCallback: Sendable {
            let onChange: @Sendable () -> Void

            init(_ onChange: @escaping @Sendable () -> Void) {
                self.onChange = onChange
            }
        }
    #endif

    extension PowerObserver {
        /// Creates an observer of Low Power Mode (`ProcessInfo`) and, where the platform gives one to apps,
        /// the battery: `UIDevice` on iOS, iPadOS and visionOS (battery monitoring on while observed), IOKit
        /// on macOS.
        public convenience init() {
            self.init(backend: ApplePowerFollower(reader: ApplePowerFactsReader()))
        }
    }
#endif
