"""An `exec` source for the pipeline tests: writes JSON lines on stdout.

    python3 emit.py ok        people and projects, interleaved
    python3 emit.py fail      one person, then "upstream said no" on stderr and exit 4
    python3 emit.py unknown   a line for an entity the model does not have
    python3 emit.py garbage   a line that is not {"entity": ..., "record": ...}
    python3 emit.py env       one person named by the EMIT_NAME environment variable
"""
import json
import os
import sys

mode = sys.argv[1]


def emit(entity, record):
    print(json.dumps({"entity": entity, "record": record}))


if mode == "ok":
    emit("CRMPerson", {"id": 1, "name": "Ada"})
    emit("CRMProject", {"id": 10, "title": "Engine", "person_id": 1})
    emit("CRMPerson", {"id": 2, "name": "Grace"})
elif mode == "fail":
    emit("CRMPerson", {"id": 1, "name": "Ada"})
    sys.stdout.flush()
    print("upstream said no", file=sys.stderr)
    sys.exit(4)
elif mode == "unknown":
    emit("CRMPerson", {"id": 1, "name": "Ada"})
    emit("CRMGhost", {"id": 1})
elif mode == "env":
    emit("CRMPerson", {"id": 1, "name": os.environ.get("EMIT_NAME", "unset")})
elif mode == "garbage":
    print('{"id": 1}')
