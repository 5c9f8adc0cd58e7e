#!/usr/bin/env python3
"""Deterministic benchmark data for scripts/bench.

Writes, for N people: people.json (N, nested address), projects.json (3N, with
person_id, team_member_ids, tags, exact decimals), tasks.json (10N, with
project_id and nullable datetimes), and nested/people.json: the same records
with projects nested in people and tasks nested in projects; and
shuffled/nested/people.json: that file with the task ids shuffled (a random
permutation of 1..10N), as real nested payloads do not list children in id order.
Usage: generate.py N OUT_DIR
"""
import json
import os
import random
import sys


def people(n, rng):
    cities = ["Berlin", "Lisbon", "Oslo", "Porto", "Quito", "Lagos", "Perth", "Kyoto"]
    for i in range(1, n + 1):
        yield {
            "id": i,
            "first_name": f"First{i}",
            "last_name": f"Last{i % 997}",
            "email": f"person{i}@example.com",
            "born_on": f"19{50 + i % 50:02d}-{1 + i % 12:02d}-{1 + i % 28:02d}",
            "admin": i % 10 == 0,
            "address": {"city": cities[i % len(cities)], "street": f"{i} Main St", "zip": f"{10000 + i % 89999}"},
        }


def projects(n, rng):
    for i in range(1, 3 * n + 1):
        person = 1 + (i - 1) // 3
        members = sorted({1 + rng.randrange(n) for _ in range(3)})
        yield {
            "id": i,
            "name": f"Project {i}",
            "person_id": person,
            "team_member_ids": members,
            "tags": ["alpha", "beta", "gamma"][: 1 + i % 3],
            "budget": f"{rng.randrange(100000)}.{rng.randrange(100):02d}",
            "archived": i % 7 == 0,
        }


def tasks(n, rng):
    for i in range(1, 10 * n + 1):
        due = None if i % 4 == 0 else f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:00.{i % 1000:03d}Z"
        yield {
            "id": i,
            "title": f"Task {i}",
            "project_id": 1 + (i - 1) % (3 * n),
            "done": i % 3 == 0,
            "due_at": due,
            "estimate": f"{i % 40}.{i % 4 * 25:02d}",
        }


def write_array(path, records):
    with open(path, "w") as out:
        out.write("[\n")
        first = True
        for record in records:
            if not first:
                out.write(",\n")
            out.write(json.dumps(record, separators=(",", ":")))
            first = False
        out.write("\n]\n")


def nested(n, rng_seed, shuffled_ids=False):
    rng = random.Random(rng_seed)
    project_list = list(projects(n, rng))
    task_list = list(tasks(n, random.Random(rng_seed + 1)))
    if shuffled_ids:
        ids = [task["id"] for task in task_list]
        random.Random(rng_seed + 2).shuffle(ids)
        for task, new_id in zip(task_list, ids):
            task["id"] = new_id
    tasks_by_project = {}
    for task in task_list:
        tasks_by_project.setdefault(task["project_id"], []).append({k: v for k, v in task.items() if k != "project_id"})
    projects_by_person = {}
    for project in project_list:
        project = dict(project)
        project["tasks"] = tasks_by_project.get(project["id"], [])
        projects_by_person.setdefault(project.pop("person_id"), []).append(project)
    for person in people(n, rng):
        person["projects"] = projects_by_person.get(person["id"], [])
        yield person


def main():
    n = int(sys.argv[1])
    out = sys.argv[2]
    os.makedirs(os.path.join(out, "nested"), exist_ok=True)
    os.makedirs(os.path.join(out, "shuffled", "nested"), exist_ok=True)
    write_array(os.path.join(out, "people.json"), people(n, random.Random(1)))
    write_array(os.path.join(out, "projects.json"), projects(n, random.Random(2)))
    write_array(os.path.join(out, "tasks.json"), tasks(n, random.Random(3)))
    write_array(os.path.join(out, "nested", "people.json"), nested(n, 2))
    write_array(os.path.join(out, "shuffled", "nested", "people.json"), nested(n, 2, shuffled_ids=True))


if __name__ == "__main__":
    main()
