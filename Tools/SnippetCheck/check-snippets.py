#!/usr/bin/env python3
"""Typechecks every ```swift block of README.md and of the DocC catalog against the package's modules.

Usage (from anywhere; the package is the directory two levels above this file):

    swift build --build-tests          # the modules the snippets import (debug)
    python3 Tools/SnippetCheck/check-snippets.py [--bin-path DIR] [--jobs N] [-v]

The snippets are extracted from the markdown files on every run. Each one is its own top-level-code
file (`await` allowed, `import SyncGate` implied) compiled with `swiftc -typecheck -swift-version 6`
together with Tools/SnippetCheck/Prelude.swift, the app's own functions and values the snippets use.
Diagnostics point at the markdown file and line. Exit status: 0 when every snippet compiles, 1 when
one does not, 2 on a usage error or a malformed marker. Markers (`skip`, `continues`) are described
in Tools/SnippetCheck/README.md.

For .ci/run (paste as a step):

    check_snippets() {
        python3 Tools/SnippetCheck/check-snippets.py
    }
    step "documentation snippets" check_snippets   # after build_debug
"""

from __future__ import annotations

import argparse
import concurrent.futures
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

TOOL_DIR = Path(__file__).resolve().parent
PACKAGE_DIR = TOOL_DIR.parent.parent
PRELUDE = TOOL_DIR / "Prelude.swift"
DOCC_DIR = Path("Sources/SyncGate/SyncGate.docc")

FENCE = re.compile(r"^( *)(`{3,}|~{3,})(.*)$")
MARKER = re.compile(r"^\s*<!--\s*snippet-check:\s*(.*?)\s*-->\s*$")
IMPORT = re.compile(r"^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*import\s+[A-Za-z_]")
DIAGNOSTIC = re.compile(r"^(.+?):(\d+):(\d+): (error|warning|note): (.*)$")


@dataclass
class Snippet:
    path: str  # relative to the package
    line: int  # line of the opening fence
    code: list  # the lines between the fences
    marker: str | None  # the marker's words, if any
    failed: bool = False
    output: list = field(default_factory=list)  # swiftc's lines about this snippet

    @property
    def first_line(self):
        return self.line + 1

    @property
    def last_line(self):
        return self.line + len(self.code)

    @property
    def name(self):
        return f"{self.path}:{self.line}"


class MarkupError(Exception):
    pass


def markdown_files():
    catalog = sorted(path.relative_to(PACKAGE_DIR) for path in (PACKAGE_DIR / DOCC_DIR).rglob("*.md"))
    return [Path("README.md")] + catalog


def extract(path):
    """Every fenced block of the file whose info string is `swift`, with the marker before it."""
    lines = (PACKAGE_DIR / path).read_text(encoding="utf-8").splitlines()
    snippets = []
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        indent, fence, info = len(opening.group(1)), opening.group(2), opening.group(3).strip()
        start = index
        body = []
        index += 1
        while index < len(lines):
            closing = FENCE.match(lines[index])
            if closing and closing.group(2)[0] == fence[0] and len(closing.group(2)) >= len(fence) \
                    and closing.group(3).strip() == "":
                break
            line = lines[index]
            body.append(line[min(indent, len(line) - len(line.lstrip(" "))):])
            index += 1
        index += 1
        words = info.split()
        if not words or words[0] != "swift":
            continue
        if len(words) > 1:
            raise MarkupError(f"{path}:{start + 1}: write markers as an HTML comment on the line before the "
                              f"fence, not in the info string ({info!r})")
        marker = None
        previous = start - 1
        while previous >= 0 and lines[previous].strip() == "":
            previous -= 1
        if previous >= 0 and "snippet-check" in lines[previous]:
            found = MARKER.match(lines[previous])
            if not found:
                raise MarkupError(f"{path}:{previous + 1}: malformed marker {lines[previous].strip()!r}; "
                                  "write <!-- snippet-check: skip REASON --> or "
                                  "<!-- snippet-check: continues -->")
            marker = found.group(1)
        snippets.append(Snippet(str(path), start + 1, body, marker))
    return snippets


def group(snippets):
    """Splits the snippets of one file into skipped ones and compile groups (a snippet and its continuations)."""
    groups, skipped = [], []
    for position, snippet in enumerate(snippets):
        words = (snippet.marker or "").split()
        if words and words[0] == "skip":
            if len(words) < 2:
                raise MarkupError(f"{snippet.name}: a skip marker needs a reason: "
                                  "<!-- snippet-check: skip REASON -->")
            skipped.append(snippet)
        elif words == ["continues"]:
            if position == 0 or not groups or groups[-1][-1] is not snippets[position - 1]:
                raise MarkupError(f"{snippet.name}: 'continues' needs a checked ```swift block right before it "
                                  "in the same file")
            groups[-1].append(snippet)
        elif words:
            raise MarkupError(f"{snippet.name}: unknown marker {snippet.marker!r}; "
                              "the markers are 'skip REASON' and 'continues'")
        else:
            groups.append([snippet])
    return groups, skipped


def source(members):
    """The top-level-code file of a group: the first snippet, each continuation nested in a `do` scope of
    the one before, so it sees the earlier names and may declare its own. Imports are hoisted to the top;
    #sourceLocation points every diagnostic at the markdown."""
    imports, body = ["import SyncGate"], []
    for depth, snippet in enumerate(members):
        if depth > 0:
            body.append("do {")
        body.append(f'#sourceLocation(file: "{snippet.path}", line: {snippet.first_line})')
        for line in snippet.code:
            if IMPORT.match(line):
                imports.append(line.strip())
                body.append("")
            else:
                body.append(line)
        body.append("#sourceLocation()")
    body += ["}"] * (len(members) - 1)
    return "\n".join(imports + body) + "\n"


def check(members, modules, workdir, verbose):
    """Typechecks one group and gives each member the diagnostics in its lines; returns the ones in no
    member's lines (the prelude's, or a failure without a location)."""
    directory = Path(tempfile.mkdtemp(prefix="group-", dir=workdir))
    main = directory / "main.swift"
    main.write_text(source(members), encoding="utf-8")
    command = ["swiftc", "-typecheck", "-swift-version", "6", "-module-name", "Snippets",
               "-diagnostic-style", "llvm", "-I", str(modules), str(main), str(PRELUDE)]
    if verbose:
        print("$ " + " ".join(command), file=sys.stderr)
    run = subprocess.run(command, cwd=PACKAGE_DIR, capture_output=True, text=True)
    unplaced, owner, is_error = [], None, False
    for line in (run.stdout + run.stderr).splitlines():
        found = DIAGNOSTIC.match(line)
        if found and found.group(4) != "note":
            where, number = found.group(1), int(found.group(2))
            owner = next((s for s in members if s.path == where and s.first_line <= number <= s.last_line), None)
            is_error = found.group(4) == "error"
            if owner is not None and is_error:
                owner.failed = True
        shown = verbose or is_error
        if shown:
            (owner.output if owner is not None else unplaced).append(line)
    if run.returncode != 0 and (unplaced or not any(s.failed for s in members)):
        for snippet in members:
            snippet.failed = True
        unplaced.append(f"swiftc exited with status {run.returncode}; the error is outside the snippets "
                        f"(in {PRELUDE.relative_to(PACKAGE_DIR)} or the generated code)")
    return unplaced


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-path", help="the debug build directory (default: swift build --show-bin-path)")
    parser.add_argument("--jobs", type=int, default=2, help="compilers run at once (default 2)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each swiftc command and its output")
    arguments = parser.parse_args()

    bin_path = arguments.bin_path
    if bin_path is None:
        bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=PACKAGE_DIR, check=True,
                                  capture_output=True, text=True).stdout.strip()
    modules = Path(bin_path) / "Modules"
    if not (modules / "SyncGate.swiftmodule").exists():
        print(f"error: {modules}/SyncGate.swiftmodule is missing; run `swift build --build-tests` first",
              file=sys.stderr)
        return 2

    try:
        groups, skipped = [], []
        for path in markdown_files():
            file_groups, file_skipped = group(extract(path))
            groups += file_groups
            skipped += file_skipped
    except MarkupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="snippet-check-") as workdir:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, arguments.jobs)) as pool:
            outputs = list(pool.map(lambda members: check(members, modules, workdir, arguments.verbose), groups))

    passed = failed = 0
    for members, unplaced in zip(groups, outputs):
        for snippet in members:
            print(f"{'FAIL' if snippet.failed else 'ok  '} {snippet.name}")
            print("".join(f"    {line}\n" for line in snippet.output), end="")
            failed += snippet.failed
            passed += not snippet.failed
        print("".join(f"    {line}\n" for line in unplaced), end="")
    for snippet in skipped:
        print(f"skip {snippet.name}: {snippet.marker[len('skip'):].strip()}")
    print(f"{passed} passed, {failed} failed" + (f", {len(skipped)} skipped" if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
