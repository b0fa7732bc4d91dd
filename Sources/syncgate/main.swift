// syncgate: the command-line face of SyncGate. Everything else lives in SyncGateCLI, so tests can import
// it; see `syncgate --help`.

import Foundation
import SyncGateCLI

// Before any other thread starts, so every thread inherits the mask (see SignalWatcher).
SignalWatcher.blockWatchedSignals()
exit(await SyncGateTool.main(arguments: Array(CommandLine.arguments.dropFirst())))
