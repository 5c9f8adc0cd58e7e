"""Writes records.json (a ~50 MB top-level array) and records.jsonl with payload-like records."""
import json
import random

random.seed(1)
size = 0
i = 0
with open("records.json", "w") as array, open("records.jsonl", "w") as lines:
    array.write("[\n")
    while size < 50_000_000:
        price = f"{random.randint(0, 99999) / 100:.2f}"
        record = {
            "id": i, "name": f"Person {i} Müller", "email": f"p{i}@example.com", "price": "PRICE",
            "score": random.random() * 100, "active": random.random() < 0.5,
            "created_at": "2024-03-%02dT10:%02d:00.000Z" % (random.randint(1, 28), random.randint(0, 59)),
            "tags": ["a", 'b"q', str(i % 7)],
            "address": {"street": "Main St %d" % i, "zip": "%05d" % (i % 99999), "geo": [1.5, -2.25]},
            "note": None,
        }
        text = json.dumps(record, ensure_ascii=False).replace('"PRICE"', price)
        array.write(("," if i else "") + text + "\n")
        lines.write(text + "\n")
        size += len(text.encode()) + 2
        i += 1
    array.write("]\n")
print(i, "records,", size, "bytes")
