import SyncGateCore

#if canImport(Foundation) && (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS) || SYNCGATE_APPLE_STUBS)
    import Foundation
    #if SYNCGATE_APPLE_STUBS
        import FoundationAppleStubs  // Apple-only Foundation members, for Tools/AppleTypecheck
    #endif
    #if canImport(UIKit) && (os(iOS) || os(visionOS) || SYNCGATE_APPLE_STUBS)
        import UIKit
    #elseif canImport(IOKit) && (os(macOS) || SYNCGATE_APPLE_STUBS)
        import IOKit.ps
    #endif

    /// The ``PowerFactsReading`` seam: Low Power Mode and the thermal state from `ProcessInfo` everywhere
    /// (followed through their notifications); the battery from
    /// `UIDevice` on iOS, iPadOS and visionOS, IOKit's power sources on macOS, none on watchOS and tvOS.
    ///
    /// `read()` may be called on any thread and never waits for the main thread. `UIDevice` is read on the
    /// main thread only: off it, `read()` gives the battery facts the main thread read last, and "unknown"
    /// (which does not block) until it has read any; `startObserving` called off the main thread turns
    /// battery monitoring on through the main queue and then reports a change, so the follower publishes
    /// the real facts as soon as the main thread has delivered them (``MainThreadFacts``).
    final class ApplePowerFactsReader: PowerFactsReading {
        // Written once by `startObserving`, read once by `stopObserving` (the follower calls them in order).
        nonisolated(unsafe) private var tokens: [any NSObjectProtocol] = []

        func startObserving(_ onChange: @escaping @Sendable () -> Void) {
            startBatteryFollowing(onChange)
            let notifications: [Notification.Name] = [
                .NSProcessInfoPowerStateDidChange, ProcessInfo.thermalStateDidChangeNotification,
            ]
            tokens = (notifications + Self.batteryNotifications).map { name in
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { _ in onChange() }
            }
        }

        func stopObserving() {
            for token in tokens { NotificationCenter.default.removeObserver(token) }
            stopBatteryFollowing()
        }

        /// `ProcessInfo.thermalState`, every case mapped by name.
        private static func thermalState() -> ThermalStateMirror {
            switch ProcessInfo.processInfo.thermalState {
            case .nominal: .nominal
            case .fair: .fair
            case .serious: .serious
            case .critical: .critical
            @unknown default: .nominal
            }
        }

        #if canImport(UIKit) && (os(iOS) || os(visionOS) || SYNCGATE_APPLE_STUBS)
            let batteryOrigin = StatusOrigin.uiDevice
            private static let batteryNotifications: [Notification.Name] = [
                UIDevice.batteryStateDidChangeNotification, UIDevice.batteryLevelDidChangeNotification,
            ]

            /// Battery monitoring is process-wide and costs energy: on while any reader observes.
            private static let batteryMonitoring = MainThreadMonitoring { enabled in
                MainActor.assumeIsolated { UIDevice.current.isBatteryMonitoringEnabled = enabled }
            }

            private let battery = MainThreadFacts(
                unknown: ApplePowerFacts.Battery.device(state: .unknown, level: -1),
                mainThread: MainThreadQueue(
                    isCurrent: { Thread.isMainThread }, async: { work in DispatchQueue.main.async(execute: work) }),
                monitoring: ApplePowerFactsReader.batteryMonitoring,
                read: { MainActor.assumeIsolated { ApplePowerFactsReader.deviceBattery(UIDevice.current) } })

            func read() -> ApplePowerFacts {
                ApplePowerFacts(
                    isLowPowerModeEnabled: ProcessInfo.processInfo.isLowPowerModeEnabled, battery: battery.current(),
                    thermalState: Self.thermalState())
            }

            /// The battery facts of `device`, every `UIDevice.BatteryState` mapped by name.
            @MainActor private static func deviceBattery(_ device: UIDevice) -> ApplePowerFacts.Battery {
                let state: BatteryStateMirror =
                    switch device.batteryState {
                    case .unknown: .unknown
                    case .unplugged: .unplugged
                    case .charging: .charging
                    case .full: .full
                    @unknown default: .unknown
                    }
                return .device(state: state, level: device.batteryLevel)
            }

            private func startBatteryFollowing(_ onChange: @escaping @Sendable () -> Void) {
                battery.start(onChange)
            }

            private func stopBatteryFollowing() {
                battery.stop()
            }
        #elseif canImport(IOKit) && (os(macOS) || SYNCGATE_APPLE_STUBS)
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
                        providing: PowerSourceTypeMirror(ioKitValue: providing), batteries: batteries),
                    thermalState: Self.thermalState())
            }

            private func startBatteryFollowing(_ onChange: @escaping @Sendable () -> Void) {
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

            private func stopBatteryFollowing() {
                if let runLoopSource { CFRunLoopRemoveSource(CFRunLoopGetMain(), runLoopSource, .defaultMode) }
                callback?.release()
            }
        #else
            let batteryOrigin = StatusOrigin.defaultValue
            private static let batteryNotifications: [Notification.Name] = []

            func read() -> ApplePowerFacts {
                ApplePowerFacts(
                    isLowPowerModeEnabled: ProcessInfo.processInfo.isLowPowerModeEnabled, battery: .none,
                    thermalState: Self.thermalState())
            }

            private func startBatteryFollowing(_ onChange: @escaping @Sendable () -> Void) {}
            private func stopBatteryFollowing() {}
        #endif
    }

    #if canImport(IOKit) && (os(macOS) || SYNCGATE_APPLE_STUBS)
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
        ///
        /// Safe to call on any thread: it never waits for the main thread. Created off the main thread on
        /// iOS, iPadOS or visionOS, the observer reports the battery as unknown (on external power, level
        /// unknown) until the main thread has read `UIDevice`, then publishes the facts.
        public convenience init() {
            self.init(backend: ApplePowerFollower(reader: ApplePowerFactsReader()))
        }
    }
#endif
