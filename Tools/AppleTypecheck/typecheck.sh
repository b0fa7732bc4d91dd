#!/usr/bin/env bash
# Typechecks every file of Sources/SyncGateApple, and the Apple branch of Sources/SyncGate, on Linux against
# interface stubs of the Apple frameworks they use (Tools/AppleTypecheck/Stubs, one module per framework),
# with the compiler settings of the package and warnings as errors. See Tools/AppleTypecheck/README.md.
#
# Usage: Tools/AppleTypecheck/typecheck.sh   (after a debug build; it builds the SyncGate target itself
# when a module it needs is missing)
set -euo pipefail
cd "$(dirname "$0")/../.."

stubs=Tools/AppleTypecheck/Stubs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bin=$(swift build --show-bin-path)
modules="$bin/Modules"
for module in SyncGateCore SyncGateDurable SyncGateLinux SyncGateExecutors; do
    if [ ! -e "$modules/$module.swiftmodule" ]; then
        swift build --target SyncGate -Xswiftc -warnings-as-errors
        break
    fi
done

# The package's own settings for its targets: its package name (for `package` declarations), and the flags
# Package.swift adds to every target, as SwiftPM passed them to the debug build.
package_name=$(python3 - "$bin/description.json" <<'EOF'
import json, sys
commands = json.load(open(sys.argv[1]))["swiftCommands"]
arguments = next(c["otherArguments"] for name, c in commands.items() if name.startswith("C.SyncGateApple-"))
print(arguments[arguments.index("-package-name") + 1])
EOF
)
settings=(-swift-version 6 -enable-upcoming-feature ExistentialAny -package-name "$package_name" -parse-as-library
    -warnings-as-errors -D SYNCGATE_APPLE_STUBS)

# 1. Each stub as its own module, with library evolution like Apple's frameworks (so their enums are not
#    frozen and a switch without `@unknown default` is diagnosed). Swift warns that Foundation and Dispatch
#    on Linux have no library evolution; that warning is the only one allowed here.
emit_stub() {
    local name=$1
    shift
    local out
    if ! out=$(swiftc -emit-module -parse-as-library -enable-library-evolution -swift-version 6 -module-name "$name" \
        -I "$work/stubs" -emit-module-path "$work/stubs/$name.swiftmodule" "$@" 2>&1); then
        echo "$out" >&2
        return 1
    fi
    if grep -v "was not compiled with library evolution support" <<<"$out" | grep -q "warning:"; then
        echo "$out" >&2
        return 1
    fi
}
mkdir -p "$work/stubs"
emit_stub FoundationAppleStubs "$stubs/FoundationAppleStubs/FoundationAppleStubs.swift"
for framework in Network CloudKit CoreData BackgroundTasks UIKit os; do
    emit_stub "$framework" "$stubs/$framework/$framework.swift"
done
# IOKit: a Swift overlay on a Clang module, so that `import IOKit.ps` names a submodule.
# Clang finds the module map in the -I directory, in the stub's folder here and in the family's below.
emit_stub IOKit -import-underlying-module -I "$stubs/IOKit" "$stubs/IOKit/IOKit.swift"

# 2. Per platform family, a directory holding the stubs of the frameworks that family has, so that each
#    `#if canImport(…)` branch of the adapters is taken in one pass: UIKit (iOS, iPadOS, visionOS), IOKit
#    without UIKit (macOS, which has no BackgroundTasks branch), neither (watchOS, tvOS).
family() {
    local name=$1
    shift
    mkdir -p "$work/$name"
    for module in "$@"; do
        cp -R "$work/stubs/$module.swiftmodule" "$work/$name/"
    done
    if [[ " $* " == *" IOKit "* ]]; then
        cp "$stubs/IOKit/module.modulemap" "$stubs/IOKit/ps.h" "$work/$name/"
    fi
}
family ios FoundationAppleStubs Network CloudKit CoreData BackgroundTasks UIKit os
family macos FoundationAppleStubs Network CloudKit CoreData IOKit os
family watchos FoundationAppleStubs Network CloudKit CoreData BackgroundTasks os

# 3. For each family: SyncGateApple, emitted as a module (with testing enabled, for the probe), then the
#    probe, which names the adapters the family must have compiled, then SyncGate's Apple branch against
#    that module (the family's directory comes first, so its SyncGateApple shadows the debug build's).
apple_sources=(Sources/SyncGateApple/*.swift)
mapfile -t syncgate_sources < <(find Sources/SyncGate -name '*.swift' | sort)
for name in ios macos watchos; do
    echo "SyncGateApple and SyncGate against the $name stubs (${#apple_sources[@]} + ${#syncgate_sources[@]} files)"
    swiftc -emit-module -module-name SyncGateApple -enable-testing "${settings[@]}" -I "$work/$name" -I "$modules" \
        -emit-module-path "$work/$name/SyncGateApple.swiftmodule" "${apple_sources[@]}"
    swiftc -typecheck -module-name AppleTypecheckProbe "${settings[@]}" -I "$work/$name" -I "$modules" \
        Tools/AppleTypecheck/Probe.swift
    swiftc -typecheck -module-name SyncGate "${settings[@]}" -I "$work/$name" -I "$modules" \
        "${syncgate_sources[@]}"
done
echo "Apple adapters typecheck against the framework stubs"
