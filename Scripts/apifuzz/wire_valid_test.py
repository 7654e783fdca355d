#!/usr/bin/env python3
"""wire_valid.py on reports made here: the ST201 case CI met (seed 616044865) is judged
valid on the wire; the same mutation one character longer, another check's failure, and
an error event are not. run.py runs it before fuzzing, with the virtual environment's
Python."""

import contextlib
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wire_valid  # noqa: E402

DOCUMENT = {
    "paths": {"/v1/admin/players/{playerId}/entitlements": {"get": {"parameters": [
        {"$ref": "#/components/parameters/PlayerId"}]}}},
    "components": {"parameters": {"PlayerId": {
        "name": "playerId", "in": "path", "required": True,
        "schema": {"type": "string", "minLength": 1, "maxLength": 256}}}},
}
OPERATION = "GET /v1/admin/players/{playerId}/entitlements"


def scenario(player_id: str, code: str = "ST201", keywords=("maxLength",)) -> dict:
    case = {"method": "GET", "path": "/v1/admin/players/{playerId}/entitlements", "id": "c1",
            "path_parameters": {"playerId": player_id},
            "meta": {"phase": {"name": "fuzzing", "data": {"mutations": [
                {"path": ["playerId"], "parameter_location": "path", "operator": "negate_constraints",
                 "keywords": list(keywords), "parameter": "playerId"}]}}}}
    check = {"name": "negative_data_rejection", "status": "failure",
             "failure_info": {"failure": {"code": code, "operation": OPERATION}}}
    return {"ScenarioFinished": {"recorder": {"label": OPERATION, "cases": {"c1": {"value": case}},
                                              "checks": {"c1": [check]}}}}


class WireValidTests(unittest.TestCase):
    def judge(self, *events) -> int:
        with tempfile.TemporaryDirectory() as directory:
            (Path(directory) / "document.yaml").write_text(json.dumps(DOCUMENT))  # JSON is YAML
            (Path(directory) / "run.ndjson").write_text("\n".join(json.dumps(e) for e in events))
            sys.argv = ["wire_valid.py", directory, str(Path(directory) / "document.yaml")]
            with contextlib.redirect_stdout(io.StringIO()):  # its verdicts, not this test's
                return wire_valid.main()

    def test_a_literal_escape_decoded_to_an_allowed_length_is_not_a_failure(self):
        self.assertEqual(self.judge(scenario("%EF%BF%BD" + "8" * 255)), 0)

    def test_a_value_past_the_length_on_the_wire_is_a_failure(self):
        self.assertEqual(self.judge(scenario("%EF%BF%BD" + "8" * 256)), 1)

    def test_another_check_or_mutation_is_a_failure(self):
        self.assertEqual(self.judge(scenario("%EF%BF%BD" + "8" * 255, code="ST202")), 1)
        self.assertEqual(self.judge(scenario("%EF%BF%BD" + "8" * 255, keywords=("pattern",))), 1)

    def test_bytes_that_are_not_utf8_are_a_failure(self):
        self.assertEqual(self.judge(scenario("%FF" + "8" * 10)), 1)

    def test_an_error_event_or_no_failure_is_a_failure(self):
        self.assertEqual(self.judge(scenario("%EF%BF%BD" + "8" * 255), {"NonFatalError": {}}), 1)
        self.assertEqual(self.judge({"EngineFinished": {}}), 1)


if __name__ == "__main__":
    unittest.main()
