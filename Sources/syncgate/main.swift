// syncgate: the command-line face of SyncGate. Everything but this line lives in SyncGateCLI, so tests
// can import it; see `syncgate --help`.

import Foundation
import SyncGateCLI

exit(await SyncGateTool.main(arguments: Array(CommandLine.arguments.dropFirst())))
