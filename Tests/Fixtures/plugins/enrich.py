"""The exec stage of people.yml: gives each person without an email one made
from the name, and a rank from the score. Reads objects as JSON lines on
stdin and prints only the values it changes.

Modes (first argument), for the tests: wrong-type answers a string where the
score is an int; unknown names an object that is not in the graph; fail exits
with status 3.
"""
import json
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else ""
if mode == "fail":
    print("enrich.py: the CRM is down", file=sys.stderr)
    sys.exit(3)

for line in sys.stdin:
    item = json.loads(line)
    values = item["values"]
    changes = {"rank": "high" if values["score"] >= 80 else "low"}
    if values.get("email") is None:
        changes["email"] = values["name"].lower().replace(" ", ".") + "@example.com"
    if mode == "wrong-type" and item["identity"] == [2]:
        changes["score"] = "eighty-five"
    if mode == "unknown" and item["identity"] == [3]:
        item["identity"] = [99]
    print(json.dumps({"entity": item["entity"], "identity": item["identity"], "values": changes}))
