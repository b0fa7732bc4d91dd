import SyncGateCore

#if canImport(CloudKit)
    import CloudKit

    /// The ``AccountStatusChecking`` seam on one `CKContainer`, created only when the account is monitored.
    final class CloudKitAccountChecker: AccountStatusChecking {
        // CKContainer is thread-safe; its Sendable conformance depends on the SDK (see UncheckedSendable).
        private let container: UncheckedSendable<CKContainer>
        // Written once by `startObserving`, read once by `stopObserving`.
        nonisolated(unsafe) private var token: (any NSObjectProtocol)?

        /// The container with `identifier`, or the default container.
        init(containerIdentifier identifier: String?) {
            container = UncheckedSendable(identifier.map { CKContainer(identifier: $0) } ?? CKContainer.default())
        }

        func accountStatus() async throws(CloudKitAccountError) -> CloudAccountStatusMirror {
            do {
                return switch try await container.value.accountStatus() {
                case .couldNotDetermine: .couldNotDetermine
                case .available: .available
                case .restricted: .restricted
                case .noAccount: .noAccount
                case .temporarilyUnavailable: .temporarilyUnavailable
                @unknown default: .unknown
                }
            } catch {
                throw CloudKitAccountError(underlying: error, facts: CloudKitErrorFacts(error))
            }
        }

        func startObserving(_ onChange: @escaping @Sendable () -> Void) {
            token = NotificationCenter.default.addObserver(forName: .CKAccountChanged, object: nil, queue: nil) {
                _ in onChange()
            }
        }

        func stopObserving() {
            if let token { NotificationCenter.default.removeObserver(token) }
        }
    }

    extension CloudKitErrorFacts {
        /// The facts of `error`: its `CKError` code by name, the retry delay and, for a partial failure,
        /// its item errors, read recursively.
        init(_ error: any Error) {
            guard let ckError = error as? CKError else {
                self.init(code: nil, description: "\(error)")
                return
            }
            let code: CloudKitErrorCodeMirror =
                switch ckError.code {
                case .partialFailure: .partialFailure
                case .networkUnavailable: .networkUnavailable
                case .networkFailure: .networkFailure
                case .serviceUnavailable: .serviceUnavailable
                case .requestRateLimited: .requestRateLimited
                case .zoneBusy: .zoneBusy
                case .serverResponseLost: .serverResponseLost
                case .accountTemporarilyUnavailable: .accountTemporarilyUnavailable
                case .notAuthenticated: .notAuthenticated
                case .quotaExceeded: .quotaExceeded
                default: .other(ckError.code.rawValue)
                }
            let items = ckError.partialErrorsByItemID?.values.map { CloudKitErrorFacts($0) } ?? []
            self.init(
                code: code, retryAfterSeconds: ckError.retryAfterSeconds, partialErrors: items,
                description: "\(ckError)")
        }
    }
#endif
