"""An exec source: prints the records of people.json as JSON lines."""
import json

with open("people.json") as payload:
    for record in json.load(payload):
        print(json.dumps({"entity": "Person", "record": record}))
