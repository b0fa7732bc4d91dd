import SyncGateCore

#if canImport(Foundation) && (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS) || SYNCGATE_APPLE_STUBS)
    import Foundation
    #if SYNCGATE_APPLE_STUBS
        import FoundationAppleStubs  // Apple-only Foundation members, for Tools/AppleTypecheck
    #endif

    /// The ``UbiquityIdentityReading`` seam on `FileManager.default.ubiquityIdentityToken`.
    final class UbiquityIdentityReader: UbiquityIdentityReading {
        // Written once by `startObserving`, read once by `stopObserving`.
        nonisolated(unsafe) private var token: (any NSObjectProtocol)?

        func hasIdentity() -> Bool {
            FileManager.default.ubiquityIdentityToken != nil
        }

        func startObserving(_ onChange: @escaping @Sendable () -> Void) {
            token = NotificationCenter.default.addObserver(
                forName: .NSUbiquityIdentityDidChange, object: nil, queue: nil
            ) { _ in onChange() }
        }

        func stopObserving() {
            if let token { NotificationCenter.default.removeObserver(token) }
        }
    }
#endif
