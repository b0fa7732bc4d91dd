// Names every adapter of Sources/SyncGateApple that the stubs of one platform family must compile, so a
// guard that stopped taking its branch fails the typecheck instead of passing with nothing compiled.
// Typechecked by typecheck.sh against the SyncGateApple module it emitted for the family.
import SyncGateCore

@testable import SyncGateApple

private let adapters: [Any.Type] = [
    NWPathMonitorAdapter.self, ApplePowerFactsReader.self, CloudKitAccountChecker.self, CloudKitEventObserver.self,
    UbiquityIdentityReader.self, OSLogLogger.self, DispatchFileEventSource.self, DispatchObjectWatch.self,
    AppleFileWatcher.self,
]
private let factories = AppleSourceFactories.system

#if canImport(BackgroundTasks)
    private let background: [Any.Type] = [BGTaskSchedulerAdapter.self, BGTaskAdapter.self]
#endif

#if canImport(IOKit)
    private let powerSources = PowerSourceCallback.self
#endif
