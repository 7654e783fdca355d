#!/usr/bin/env python3
"""Separates schemathesis's "schema-violating request accepted" (ST201) failures whose
request was not schema-violating on the wire.

schemathesis percent-decodes a path parameter before it encodes it (so an escape it made
earlier is not escaped twice). A generated value with a literal escape in it, such as
`%EF%BF%BD` followed by 255 characters (264 characters, past a `maxLength` of 256), then
reaches the server as U+FFFD and the 255 characters: 256 characters, which the schema
allows, so the server rightly accepts it and schemathesis reports ST201.

Reads the ndjson reports in a report directory and the OpenAPI document. A failure is
"wire-valid" when it is ST201 on a path parameter, mutated only in its length
(`minLength`, `maxLength`), and the value the server received (the recorded, encoded
value, decoded as strict UTF-8) is within the declared lengths. Prints each failure and
its verdict. Exit 0 when there is at least one failure and every failure is wire-valid, 1
otherwise (any other failure, an error event, or nothing to judge).

Run with the virtual environment's Python (it has PyYAML, through schemathesis):
  .build/apifuzz-venv/bin/python Scripts/apifuzz/wire_valid.py REPORT_DIR docs/openapi.yaml
"""

import json
import sys
from pathlib import Path
from urllib.parse import unquote

import yaml

LENGTH_KEYWORDS = {"minLength", "maxLength"}
FINE_EVENTS = {"Initialize", "LoadingStarted", "LoadingFinished", "EngineStarted", "PhaseStarted", "PhaseFinished",
               "SuiteStarted", "SuiteFinished", "ScenarioStarted", "ScenarioFinished", "EngineFinished"}


def resolve(document: dict, node: dict) -> dict:
    """Follows local `$ref`s (`#/a/b`)."""
    while isinstance(node, dict) and "$ref" in node:
        target = document
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def path_parameter_schema(document: dict, operation: str, name: str) -> dict | None:
    """The schema of path parameter `name` of `operation` ("GET /path/{x}")."""
    method, _, path = operation.partition(" ")
    item = document.get("paths", {}).get(path) or {}
    declared = (item.get("parameters") or []) + ((item.get(method.lower()) or {}).get("parameters") or [])
    for parameter in (resolve(document, p) for p in declared):
        if parameter.get("name") == name and parameter.get("in") == "path":
            return resolve(document, parameter.get("schema") or {})
    return None


def wire_valid(document: dict, operation: str, case: dict, failure: dict) -> str | None:
    """Why the failure is wire-valid, or None when it is not."""
    if failure.get("code") != "ST201":
        return None
    phase = ((case.get("meta") or {}).get("phase") or {}).get("data") or {}
    mutations = phase.get("mutations") or []
    if not mutations:
        return None
    for mutation in mutations:
        keywords = set(mutation.get("keywords") or [])
        if mutation.get("parameter_location") != "path" or not keywords or not keywords <= LENGTH_KEYWORDS:
            return None
    reasons = []
    for name in {m.get("parameter") for m in mutations}:
        encoded = (case.get("path_parameters") or {}).get(name)
        schema = path_parameter_schema(document, operation, name)
        if not isinstance(encoded, str) or schema is None:
            return None
        try:
            received = unquote(encoded, errors="strict")
        except UnicodeDecodeError:
            return None
        low, high = schema.get("minLength", 0), schema.get("maxLength")
        if len(received) < low or (high is not None and len(received) > high):
            return None
        reasons.append(f"{name} reached the server as {len(received)} characters "
                       f"(the schema allows {low} to {high if high is not None else 'any'})")
    return "; ".join(reasons)


def main() -> int:
    report, document_path = Path(sys.argv[1]), Path(sys.argv[2])
    document = yaml.safe_load(document_path.read_text())
    judged, other = 0, 0
    for path in sorted(report.glob("*.ndjson")):
        for line in path.read_text(errors="replace").splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            kind = next(iter(event), None) if isinstance(event, dict) else None
            if kind not in FINE_EVENTS:
                print(f"wire-valid: event {kind} is not a check failure: not judged", flush=True)
                other += 1
                continue
            if kind != "ScenarioFinished":
                continue
            recorder = event[kind].get("recorder") or {}
            for case_id, checks in (recorder.get("checks") or {}).items():
                for check in checks:
                    if check.get("status") in ("success", "skip"):
                        continue
                    failure = ((check.get("failure_info") or {}).get("failure")) or {}
                    case = ((recorder.get("cases") or {}).get(case_id) or {}).get("value") or {}
                    operation = failure.get("operation") or recorder.get("label") or ""
                    why = wire_valid(document, operation, case, failure)
                    if why is None:
                        other += 1
                        print(f"wire-valid: {case_id} {operation}: {failure.get('code')} {check.get('name')}: "
                              "a real failure", flush=True)
                    else:
                        judged += 1
                        print(f"wire-valid: {case_id} {operation}: ST201 not a failure: {why}", flush=True)
    return 0 if judged > 0 and other == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
