#!/usr/bin/env python3
"""The fidelity table of docs/storekit-linux.md against the public interface of StoreKit
for Linux (SDK/: modules StoreKit and StoreKitTest), through their symbol graphs.

    python3 Scripts/storekit/check-fidelity.py [--skip-build] [--self-test]

Builds the SDK's StoreKitTest target (a no-op when `swift test --package-path SDK` already
built it), extracts both modules' symbol graphs at public access level with `swift
symbolgraph-extract`, reads every table of the document whose first column is headed
"symbol", and exits 1, naming each problem, when:

  (a) a public type or member of either module is named by no row (a type by its
      qualified name, a member by its name in a row of its owning type);
  (b) a row marked yes or *partial* names a symbol the modules do not have;
  (c) a row marked **no** names a symbol the modules have publicly;
  (d) the "Coverage:" sentence does not count the rows as they are.

The table's convention, column "symbol": every name in backticks is a symbol. A name with
a dot is qualified (`Product.SubscriptionInfo.status`, `SKPaymentQueue.add(_:)`); a name
without a dot that starts with a capital letter is top level (`Product`, `SKErrorDomain`);
any other name is a member (`type`, `init(product:)`, `status(for:)`) of a type the row
names, or of the type that owns a member the row names qualified. Methods, initializers
and enum cases are written as Swift's symbol graph titles them: `name(label:_:)`.
Overloads share a name, so one name covers them all.

--self-test checks the checker: it runs the check on copies of the document with one row
removed, with a bogus row marked yes added and with an existing symbol marked **no**, and
fails unless each is caught.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "SDK"
DOC = ROOT / "docs" / "storekit-linux.md"
MODULES = ["StoreKit", "StoreKitTest"]

# Members the table need not name: each exists only for a protocol conformance
# (Equatable, Hashable, Codable, AsyncSequence/AsyncIteratorProtocol, LocalizedError,
# CustomStringConvertible, RawRepresentable), not as StoreKit API of its own. A row may
# still name one (Apple's `Product.description` is API, and listed); then it must exist.
IGNORED_MEMBERS = {
    "==(_:_:)",  # Equatable
    "hash(into:)",  # Hashable
    "hashValue",  # Hashable
    "init(from:)",  # Decodable
    "encode(to:)",  # Encodable
    "makeAsyncIterator()",  # AsyncSequence
    "AsyncIterator",  # AsyncSequence
    "Element",  # AsyncSequence
    "next()",  # AsyncIteratorProtocol
    "errorDescription",  # LocalizedError
    "description",  # CustomStringConvertible
    "rawValue",  # RawRepresentable
    "init(rawValue:)",  # RawRepresentable
}

TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol"}
IMPL_VALUES = {"yes": "yes", "*partial*": "partial", "**no**": "no"}


def run(command, **kwargs):
    return subprocess.run(command, check=True, text=True, **kwargs)


def extract_symbols(skip_build):
    """{path: kind} of the public symbols of MODULES, synthesized members left out."""
    if not skip_build:
        run(["swift", "build", "--package-path", str(SDK), "--target", "StoreKitTest"], stdout=subprocess.DEVNULL)
    bin_path = Path(
        run(["swift", "build", "--package-path", str(SDK), "--show-bin-path"], capture_output=True).stdout.strip()
    )
    triple = json.loads(run(["swift", "-print-target-info"], capture_output=True).stdout)["target"]["triple"]
    # The C targets' module maps: the generated ones of the built targets, and the system
    # libraries' own (COpenSSL), so the Swift modules that import them load.
    module_maps = sorted(bin_path.glob("*.build/module.modulemap")) + sorted(SDK.glob("Sources/*/module.modulemap"))
    symbols = {}
    with tempfile.TemporaryDirectory() as out:
        for module in MODULES:
            command = [
                "swift", "symbolgraph-extract", "-module-name", module, "-target", triple,
                "-I", str(bin_path / "Modules"), "-I", str(bin_path),
                "-minimum-access-level", "public", "-skip-synthesized-members", "-output-dir", out,
            ]
            for module_map in module_maps:
                command += ["-Xcc", f"-fmodule-map-file={module_map}"]
            run(command)
            for graph_file in sorted(Path(out).glob(f"{module}*.symbols.json")):
                for symbol in json.loads(graph_file.read_text())["symbols"]:
                    if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                        continue
                    if symbol.get("accessLevel") not in ("public", "open"):
                        continue
                    symbols[".".join(symbol["pathComponents"])] = symbol["kind"]["identifier"]
    return symbols


def split_dotted(name):
    """`Product.purchase(options:)` → ["Product", "purchase(options:)"]: dots outside parentheses."""
    parts, depth, current = [], 0, ""
    for character in name:
        if character == "(":
            depth += 1
        elif character == ")":
            depth -= 1
        if character == "." and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += character
    parts.append(current)
    return parts


def parse_rows(text):
    """The rows of every table headed "| symbol |": (line number, section, names, impl)."""
    rows, section, in_table = [], "", False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        if not line.startswith("|"):
            in_table = False
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not in_table:
            in_table = cells[0] == "symbol"  # the header row
            header = cells
            continue
        if set(line.replace("|", "").strip()) <= set("-: "):
            continue  # the separator row
        impl_column = header.index("impl.") if "impl." in header else None
        impl = cells[impl_column] if impl_column is not None and impl_column < len(cells) else ""
        names = re.findall(r"`([^`]+)`", cells[0])
        rows.append({"line": number, "section": section, "names": names, "impl": IMPL_VALUES.get(impl, impl), "text": line})
    return rows


def resolve_row(row, symbols):
    """The row's names as symbol paths: [(name as written, path)]."""
    qualified, bare = [], []
    for name in row["names"]:
        parts = split_dotted(name)
        if len(parts) > 1 or name[:1].isupper():
            qualified.append((name, name))
        else:
            bare.append(name)
    owners = []
    for _, path in qualified:
        parts = split_dotted(path)
        candidates = [path] if symbols.get(path) in TYPE_KINDS or path not in symbols else []
        if len(parts) > 1:
            candidates.append(".".join(parts[:-1]))
        for owner in candidates:
            if owner not in owners:
                owners.append(owner)
    # Types the modules have first: an unresolved member is reported against (and, in a
    # row marked **no**, looked for in) `SKProduct`, not in the absent `SKProduct.discounts`.
    owners.sort(key=lambda owner: symbols.get(owner) not in TYPE_KINDS)
    resolved = list(qualified)
    for name in bare:
        matches = [f"{owner}.{name}" for owner in owners if f"{owner}.{name}" in symbols]
        if matches:
            resolved += [(name, path) for path in matches]
        else:  # unresolved: reported against the row's first owner
            resolved.append((name, f"{owners[0]}.{name}" if owners else name))
    return resolved


def check(text, symbols, doc_name="docs/storekit-linux.md"):
    """The problems of the document `text` against `symbols`, and the rows' counts."""
    problems = []
    rows = parse_rows(text)
    named = set()
    for row in rows:
        where = f"{doc_name}:{row['line']} ({row['section']})"
        if row["impl"] not in ("yes", "partial", "no", ""):
            problems.append(f"{where}: impl. is {row['impl']!r}, not yes, *partial* or **no**")
        if not row["names"]:
            problems.append(f"{where}: the row names no symbol in backticks")
        for name, path in resolve_row(row, symbols):
            exists = path in symbols
            named.add(path)
            if row["impl"] in ("yes", "partial", "") and not exists:
                problems.append(f"(b) {where}: `{name}` ({path}) is marked {row['impl'] or 'nothing'} but is not public in {'/'.join(MODULES)}")
            if row["impl"] == "no" and exists:
                problems.append(f"(c) {where}: `{name}` ({path}) is marked **no** but is public: mark it yes or *partial*")
    ignored_owners = set()
    for path in sorted(symbols):
        parts = split_dotted(path)
        if parts[-1] in IGNORED_MEMBERS and path not in named:
            ignored_owners.add(path)
            continue
        if any(".".join(parts[:i]) in ignored_owners for i in range(1, len(parts))):
            ignored_owners.add(path)
            continue  # a member of an ignored nested type (an AsyncIterator's next())
        if path not in named:
            what = "type" if symbols[path] in TYPE_KINDS else "member" if len(parts) > 1 else "symbol"
            hint = f"name it in a row of `{'.'.join(parts[:-1])}`" if len(parts) > 1 else "add a row"
            problems.append(f"(a) public {what} {path} ({symbols[path]}) is not in the table: {hint}")
    counts = {impl: sum(1 for row in rows if row["impl"] == impl) for impl in ("yes", "partial", "no")}
    coverage = re.search(r"Coverage: (\d+) table rows[^:]*: (\d+) implemented, (\d+) partial[^,]*, (\d+) not implemented", text)
    expected = (counts["yes"] + counts["partial"] + counts["no"], counts["yes"], counts["partial"], counts["no"])
    if not coverage:
        problems.append("(d) the \"Coverage: N table rows …: N implemented, N partial …, N not implemented\" sentence is missing")
    elif tuple(int(group) for group in coverage.groups()) != expected:
        problems.append(
            "(d) the Coverage sentence says {} rows: {} implemented, {} partial, {} not implemented; the table has {} rows: {} yes, {} partial, {} no".format(
                *coverage.groups(), *expected
            )
        )
    counts["ignored"] = len(ignored_owners)
    return problems, counts


def self_test(text, symbols):
    """Fails unless a removed row, a bogus yes row and an existing symbol marked no are caught."""
    baseline = set(check(text, symbols)[0])
    failures = []
    lines = text.splitlines(keepends=True)
    rows = parse_rows(text)

    # 1. A row removed: a row with one qualified name, an existing symbol no other row names.
    named_elsewhere = {}
    for row in rows:
        for _, path in resolve_row(row, symbols):
            named_elsewhere[path] = named_elsewhere.get(path, 0) + 1
    victim = next(
        row for row in rows
        if len(row["names"]) == 1 and row["names"][0] in symbols and named_elsewhere[row["names"][0]] == 1
        and split_dotted(row["names"][0])[-1] not in IGNORED_MEMBERS
    )
    removed = "".join(line for number, line in enumerate(lines, start=1) if number != victim["line"])
    new = set(check(removed, symbols)[0]) - baseline
    if not any(problem.startswith(f"(a) public") and f" {victim['names'][0]} (" in problem for problem in new):
        failures.append(f"removing the row of `{victim['names'][0]}` (line {victim['line']}) was not caught: {sorted(new)}")

    # 2. A bogus row marked yes, after the victim's row (in a table).
    bogus_name = "Product.fidelitySelfTestBogus"
    bogus_row = f"| `{bogus_name}` | `let fidelitySelfTestBogus: Int` | `product` | yes | |\n"
    added = "".join(lines[: victim["line"]]) + bogus_row + "".join(lines[victim["line"] :])
    new = set(check(added, symbols)[0]) - baseline
    if not any(problem.startswith("(b)") and bogus_name in problem for problem in new):
        failures.append(f"the bogus row `{bogus_name}` marked yes was not caught: {sorted(new)}")

    # 3. The victim's row marked **no** while its symbol exists.
    marked_no = re.sub(r"\|\s*(yes|\*partial\*)\s*\|", "| **no** |", lines[victim["line"] - 1], count=1)
    no_text = "".join(lines[: victim["line"] - 1]) + marked_no + "".join(lines[victim["line"] :])
    new = set(check(no_text, symbols)[0]) - baseline
    if not any(problem.startswith("(c)") and victim["names"][0] in problem for problem in new):
        failures.append(f"`{victim['names'][0]}` marked **no** was not caught: {sorted(new)}")

    if failures:
        for failure in failures:
            print(f"self-test FAILED: {failure}")
        return 1
    print(f"self-test passed: a removed row (`{victim['names'][0]}`), a bogus yes row and an existing symbol marked **no** are caught")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skip-build", action="store_true", help="use the SDK's modules as built")
    parser.add_argument("--self-test", action="store_true", help="check that the checker catches drift")
    parser.add_argument("--doc", type=Path, default=DOC, help="the document (default: docs/storekit-linux.md)")
    arguments = parser.parse_args()
    try:
        symbols = extract_symbols(arguments.skip_build)
    except subprocess.CalledProcessError as error:
        print(f"check-fidelity: {' '.join(error.cmd[:3])} … failed (exit {error.returncode}): no symbol graph to check")
        return 1
    text = arguments.doc.read_text()
    if arguments.self_test:
        return self_test(text, symbols)
    problems, counts = check(text, symbols, os.path.relpath(arguments.doc, ROOT))
    for problem in problems:
        print(problem)
    total = counts["yes"] + counts["partial"] + counts["no"]
    print(
        f"{len(symbols)} public symbols in {', '.join(MODULES)} ({counts['ignored']} conformance members "
        f"need no row); {total} table rows: {counts['yes']} yes, {counts['partial']} partial, "
        f"{counts['no']} no; {len(problems)} problems"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
