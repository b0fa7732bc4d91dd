#!/usr/bin/env python3
"""Typechecks every ```swift block of README.md and of the DocC catalog against the package's modules.

Usage (from anywhere; the package is the directory two levels above this file):

    swift build --build-tests          # the modules the snippets import (debug)
    python3 Tools/SnippetCheck/check-snippets.py [--bin-path DIR] [--jobs N] [-v] [--no-self-test] [FILE.md ...]

The snippets are extracted from the markdown files on every run. Each one is its own top-level-code
file (`await` allowed, `import SyncGate` implied) compiled with `swiftc -typecheck -swift-version 6`
together with Tools/SnippetCheck/Prelude.swift, the app's own functions and values the snippets use.
The same file holds a second copy of the snippet's statements wrapped in an async throwing closure
(where users paste them: `Task { }`, a SwiftUI `.task`, `QuietExecutors.runMain`), so a snippet that
compiles only at top level fails too; its top-level declarations stay at file scope. Before the
documentation, the check runs its own fixture (Tools/SnippetCheck/SelfTest.md) and stops if a snippet
there does not fail or pass where it is expected to. Diagnostics point at the markdown file and line.
Exit status: 0 when every snippet compiles, 1 when one does not, 2 on a usage error, a malformed marker
or a failed self-test. Markers (`skip`, `continues`) are described in Tools/SnippetCheck/README.md.

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
SELF_TEST = TOOL_DIR / "SelfTest.md"
DOCC_DIR = Path("Sources/SyncGate/SyncGate.docc")

# The two ways each snippet is compiled. The closure copy's #sourceLocation names the markdown file with
# this label, so its diagnostics can be told apart (the label holds no ':', which the pattern splits at).
TOP_LEVEL = "at top level"
IN_CLOSURE = "inside an async closure"
CLOSURE_LABEL = f" ({IN_CLOSURE})"

FENCE = re.compile(r"^( *)(`{3,}|~{3,})(.*)$")
MARKER = re.compile(r"^\s*<!--\s*snippet-check:\s*(.*?)\s*-->\s*$")
IMPORT = re.compile(r"^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*import\s+[A-Za-z_]")
DIAGNOSTIC = re.compile(r"^(.+?):(\d+):(\d+): (error|warning|note): (.*)$")
# What a top-level declaration of a snippet starts with once its attributes are removed: a declaration
# that cannot move into a closure (an extension, an @Test function) or that statements use by name.
DECLARATION = re.compile(r"^((public|package|internal|fileprivate|private|open|final|nonisolated|indirect|"
                         r"prefix|postfix|infix)\s+)*(struct|class|enum|protocol|extension|actor|func|typealias|"
                         r"operator|precedencegroup|macro)\b")
ATTRIBUTE = re.compile(r"@[A-Za-z_][A-Za-z0-9_]*")
STRING = re.compile(r'"(?:\\.|[^"\\])*"')
EXPECT = re.compile(r"^\s*//\s*expect:\s*(.*?)\s*$")


@dataclass
class Snippet:
    path: str  # relative to the package
    line: int  # line of the opening fence
    code: list  # the lines between the fences
    marker: str | None  # the marker's words, if any
    failures: set = field(default_factory=set)  # the ways (TOP_LEVEL, IN_CLOSURE) it failed to compile
    output: list = field(default_factory=list)  # swiftc's lines about this snippet

    @property
    def failed(self):
        return bool(self.failures)

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


def strip_attributes(line):
    """The line without its leading attributes (`@MainActor`, `@Test(.timeLimit(.minutes(1)))`) and spaces."""
    rest = line.lstrip()
    while True:
        found = ATTRIBUTE.match(rest)
        if not found:
            return rest
        rest = rest[found.end():]
        if rest.startswith("("):
            depth = 0
            for position, character in enumerate(rest):
                depth += {"(": 1, ")": -1}.get(character, 0)
                if depth == 0:
                    rest = rest[position + 1:]
                    break
            else:
                return ""
        rest = rest.lstrip()


def balance(line):
    """How many brackets the line opens minus how many it closes, strings and `//` comments left out."""
    code = STRING.sub('""', line).split("//")[0]
    return sum(code.count(c) for c in "{([") - sum(code.count(c) for c in "})]")


def declaration_lines(code):
    """Which lines of a snippet belong to its top-level declarations: a declaration starts at column 0
    (with the attribute lines right before it) and ends where its brackets close and the next line at
    column 0 begins. The rest are the statements that the closure copy holds."""
    mask = [False] * len(code)
    index = 0
    while index < len(code):
        first = index
        while index < len(code) and code[index][:1] == "@" and strip_attributes(code[index]) == "":
            index += 1   # attribute lines of the declaration below
        if index == len(code) or not (code[index][:1].strip() and DECLARATION.match(strip_attributes(code[index]))):
            index = first + 1
            continue
        depth = balance(code[index])
        end = index + 1
        while end < len(code):
            following = code[end]
            at_column_zero = following[:1].strip() != ""
            if depth <= 0 and at_column_zero and not following.lstrip().startswith(("}", ")", "]", "{", "where ")):
                break
            depth += balance(following)
            end += 1
        for position in range(first, end):
            mask[position] = True
        index = end
    return mask


def source(members):
    """The top-level-code file of a group: the first snippet, each continuation nested in a `do` scope of
    the one before, so it sees the earlier names and may declare its own; then the same statements again
    inside `_ = { () async throws in ... }`, as a user pastes them into `Task { }`, with the top-level
    declarations left out (the file scope's copy serves both). Imports are hoisted to the top;
    #sourceLocation points every diagnostic at the markdown, the closure copy's with CLOSURE_LABEL."""
    imports, body, closure = ["import SyncGate"], [], []
    closure_has_statements = False
    for depth, snippet in enumerate(members):
        if depth > 0:
            body.append("do {")
            closure.append("do {")
        body.append(f'#sourceLocation(file: "{snippet.path}", line: {snippet.first_line})')
        closure.append(f'#sourceLocation(file: "{snippet.path}{CLOSURE_LABEL}", line: {snippet.first_line})')
        for line, is_declaration in zip(snippet.code, declaration_lines(snippet.code)):
            if IMPORT.match(line):
                imports.append(line.strip())
                body.append("")
                closure.append("")
            else:
                body.append(line)
                closure.append("" if is_declaration else line)
                closure_has_statements |= not is_declaration and line.strip() not in ("", "}") \
                    and not line.lstrip().startswith("//")
        body.append("#sourceLocation()")
        closure.append("#sourceLocation()")
    body += ["}"] * (len(members) - 1)
    closure += ["}"] * (len(members) - 1)
    if closure_has_statements:
        body += ["_ = { () async throws in"] + closure + ["}"]
    return "\n".join(imports + body) + "\n"


def check(members, modules, workdir, verbose):
    """Typechecks one group and gives each member the diagnostics in its lines, noting for each error
    whether it is in the top-level copy or the closure copy; returns the diagnostics in no member's
    lines (the prelude's, or a failure without a location)."""
    directory = Path(tempfile.mkdtemp(prefix="group-", dir=workdir))
    main = directory / "main.swift"
    main.write_text(source(members), encoding="utf-8")
    command = ["swiftc", "-typecheck", "-swift-version", "6", "-module-name", "Snippets",
               "-diagnostic-style", "llvm", "-I", str(modules), str(main), str(PRELUDE)]
    if verbose:
        print("$ " + " ".join(command), file=sys.stderr)
    run = subprocess.run(command, cwd=PACKAGE_DIR, capture_output=True, text=True)
    unplaced, owner, is_error, in_closure = [], None, False, False
    for line in (run.stdout + run.stderr).splitlines():
        found = DIAGNOSTIC.match(line)
        if found:
            where = found.group(1)
            if where.endswith(CLOSURE_LABEL):
                where = where[:-len(CLOSURE_LABEL)]
                line = f"{where}:{found.group(2)}:{found.group(3)}: {found.group(4)}: ({IN_CLOSURE}) {found.group(5)}"
        if found and found.group(4) != "note":
            in_closure = found.group(1).endswith(CLOSURE_LABEL)
            number = int(found.group(2))
            owner = next((s for s in members if s.path == where and s.first_line <= number <= s.last_line), None)
            is_error = found.group(4) == "error"
            if owner is not None and is_error:
                owner.failures.add(IN_CLOSURE if in_closure else TOP_LEVEL)
        shown = verbose or is_error
        if shown:
            (owner.output if owner is not None else unplaced).append(line)
    if run.returncode != 0 and (unplaced or not any(s.failed for s in members)):
        for snippet in members:
            snippet.failures.add(TOP_LEVEL)
        unplaced.append(f"swiftc exited with status {run.returncode}; the error is outside the snippets "
                        f"(in {PRELUDE.relative_to(PACKAGE_DIR)} or the generated code)")
    return unplaced


def collect(paths):
    """The compile groups and the skipped snippets of the given markdown files (relative to the package)."""
    groups, skipped = [], []
    for path in paths:
        file_groups, file_skipped = group(extract(path))
        groups += file_groups
        skipped += file_skipped
    return groups, skipped


def expected_failures(snippet):
    """What the self-test fixture's snippet says it must do: its first line `// expect: ok`,
    `// expect: fails inside an async closure` or `// expect: fails at top level and inside an async closure`."""
    found = EXPECT.match(snippet.code[0]) if snippet.code else None
    if not found:
        raise MarkupError(f"{snippet.name}: a self-test snippet starts with `// expect: ok` or "
                          f"`// expect: fails {IN_CLOSURE}` or `// expect: fails {TOP_LEVEL} and {IN_CLOSURE}`")
    words = found.group(1)
    return {mode for mode in (TOP_LEVEL, IN_CLOSURE) if mode in words}


def describe(failures):
    """The ways a snippet failed, for its FAIL line: `(inside an async closure)`, or nothing when it
    failed at top level (where it then fails inside the closure too, usually)."""
    return "" if TOP_LEVEL in failures or not failures else f" ({IN_CLOSURE} only)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-path", help="the debug build directory (default: swift build --show-bin-path)")
    parser.add_argument("--jobs", type=int, default=2, help="compilers run at once (default 2)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each swiftc command and its output")
    parser.add_argument("--no-self-test", action="store_true",
                        help=f"skip the fixture {SELF_TEST.relative_to(PACKAGE_DIR)} (run by default)")
    parser.add_argument("files", nargs="*", type=Path,
                        help="markdown files to check, relative to the package (default: README.md and the DocC catalog)")
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
        groups, skipped = collect(arguments.files or markdown_files())
        self_test = [] if arguments.no_self_test else collect([SELF_TEST.relative_to(PACKAGE_DIR)])[0]
        expectations = {id(s): expected_failures(s) for members in self_test for s in members}
    except MarkupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="snippet-check-") as workdir:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, arguments.jobs)) as pool:
            outputs = list(pool.map(lambda members: check(members, modules, workdir, arguments.verbose),
                                    self_test + groups))

    mismatches = 0
    for members, unplaced in zip(self_test, outputs):
        wrong = [s for s in members if s.failures != expectations[id(s)]]
        for snippet in wrong:
            wanted = expectations[id(snippet)]
            print(f"self-test {snippet.name}: expected "
                  + (f"failures {' and '.join(sorted(wanted))}" if wanted else "no failure")
                  + ", got " + (f"failures {' and '.join(sorted(snippet.failures))}" if snippet.failures else "none"))
            print("".join(f"    {line}\n" for line in snippet.output), end="")
        if wrong:
            print("".join(f"    {line}\n" for line in unplaced), end="")
        mismatches += len(wrong)
    if mismatches:
        print("error: the self-test failed: the check no longer tells where a snippet compiles; "
              "fix check-snippets.py (or the fixture, if Swift changed)", file=sys.stderr)
        return 2

    passed = failed = 0
    for members, unplaced in zip(groups, outputs[len(self_test):]):
        for snippet in members:
            print(f"{'FAIL' if snippet.failed else 'ok  '} {snippet.name}{describe(snippet.failures)}")
            print("".join(f"    {line}\n" for line in snippet.output), end="")
            failed += snippet.failed
            passed += not snippet.failed
        print("".join(f"    {line}\n" for line in unplaced), end="")
    for snippet in skipped:
        print(f"skip {snippet.name}: {snippet.marker[len('skip'):].strip()}")
    checked = f" (self-test: {sum(len(m) for m in self_test)} fixtures as expected)" if self_test else ""
    print(f"{passed} passed, {failed} failed" + (f", {len(skipped)} skipped" if skipped else "") + checked)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
