"""The exec transformer of people.yml: upper-cases each string it reads, one
JSON value a line in, one a line out, in order.

Modes (first argument), for the tests: wrong-type answers an object for
"alan turing"; fail exits with status 2; short answers only the first value.
"""
import json
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else ""
if mode == "fail":
    sys.exit(2)

for number, line in enumerate(sys.stdin):
    value = json.loads(line)
    if mode == "short" and number > 0:
        continue
    if mode == "wrong-type" and value == "alan turing":
        print(json.dumps({"upper": value.upper()}))
    else:
        print(json.dumps(value.upper()))
