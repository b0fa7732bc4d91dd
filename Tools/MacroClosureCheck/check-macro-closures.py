#!/usr/bin/env python3
"""Fails when a closure is written inside a freestanding macro's arguments (`#expect`, `#require`, ...)
that is itself inside a closure.

Why: this toolchain's compiler can give such a closure the same symbol as a later closure of the enclosing
closure, and then emits one body for both: the later closure silently runs the macro argument's code. It
was seen in a test inside `withDaemon { ... }`:

    #expect(SystemBytes.withCString(directory) { mkdir($0, 0o755) } == 0)
    let made = SystemBytes.withCString(directory + "/new") { creat($0, 0o644) }   // ran mkdir, returned 0

so `made` was 0 and closing it closed the test process's standard input. Inside a plain function the
closures get distinct symbols. The rule here is the safe one: inside a closure, give a closure's result a
name first and check the name (`let found = xs.contains { ... }` then `#expect(found)`).

The check reads each file's syntax tree from `swiftc -dump-parse` (every `#if` branch included, so code for
other platforms is checked too) and prints `path:line` for each closure it finds in that position.
Usage: check-macro-closures.py [directory or file ...] (default: Sources Tests Examples Benchmarks Fuzz Tools)
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

DEFAULT_ROOTS = ["Sources", "Tests", "Examples", "Benchmarks", "Fuzz", "Tools"]
CONDITIONAL = re.compile(r"(?m)^[ \t]*#(if|elseif|else|endif)\b.*$")
RANGE_LINE = re.compile(r"range=\[[^\]]*?:(\d+):\d+")


def swift_files(roots):
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for directory, _, names in os.walk(root):
            if "/.build" in directory:
                continue
            for name in sorted(names):
                if name.endswith(".swift"):
                    yield os.path.join(directory, name)


def findings(dump):
    """(line) of each closure inside a macro expansion that is inside a closure, in one file's dump."""
    stack = []
    lines = dump.split("\n")
    found = set()
    for index, text in enumerate(lines):
        stripped = text.lstrip(" ")
        if not stripped.startswith("("):
            continue
        indent = len(text) - len(stripped)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        kind = stripped[1:].split(" ", 1)[0].rstrip(")")
        if kind == "closure_expr":
            kinds = [entry[1] for entry in stack]
            if "macro_expansion_expr" in kinds:
                macro = max(i for i, k in enumerate(kinds) if k == "macro_expansion_expr")
                if "closure_expr" in kinds[:macro]:
                    for following in lines[index : index + 8]:
                        match = RANGE_LINE.search(following)
                        if match:
                            found.add(int(match.group(1)))
                            break
        stack.append((indent, kind))
    return sorted(found)


SELF_TEST = {
    # The pattern that was miscompiled: flagged.
    "inside": ("func f() { with { #expect(g { $0 }) ; let h = g { $0 + 1 } } }", [1]),
    # In a plain function the closures get distinct symbols; named first, nothing is inside the macro.
    "plain": ("func f() { #expect(g { $0 }) }\nfunc k() { with { let a = g { $0 }; #expect(a) } }", []),
}


def dump_lines(text):
    with tempfile.NamedTemporaryFile("w", suffix=".swift", encoding="utf-8") as copy:
        copy.write(CONDITIONAL.sub("", text))
        copy.flush()
        result = subprocess.run(["swiftc", "-dump-parse", copy.name], capture_output=True, text=True)
    return findings(result.stdout) if "(source_file" in result.stdout else None


def main():
    # The check checks itself first: a reader that finds nothing would pass every file.
    for name, (text, expected) in SELF_TEST.items():
        if dump_lines(text) != expected:
            print(f"check-macro-closures: self-test '{name}' found {dump_lines(text)}, not {expected}", file=sys.stderr)
            return 2
    roots = sys.argv[1:] or [root for root in DEFAULT_ROOTS if os.path.exists(root)]
    paths = list(swift_files(roots))
    problems = []

    def check(path):
        with open(path, encoding="utf-8") as source:
            return path, dump_lines(source.read())

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for path, lines in pool.map(check, paths):
            if lines is None:
                print(f"check-macro-closures: swiftc -dump-parse could not read {path}", file=sys.stderr)
                return 2
            problems += [f"{path}:{line}" for line in lines]
    for problem in problems:
        print(f"{problem}: a closure inside a macro's arguments inside a closure; name its result first")
    print(f"check-macro-closures: {len(paths)} files, {len(problems)} closures inside macro arguments inside closures")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
