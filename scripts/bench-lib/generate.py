#!/usr/bin/env python3
"""Deterministic benchmark data for scripts/bench.

Writes, for N people: people.json (N, nested address), projects.json (3N, with
person_id, team_member_ids, tags, exact decimals), tasks.json (10N, with
project_id and nullable datetimes), and nested/people.json: the same records
with projects nested in people and tasks nested in projects; and
shuffled/nested/people.json: that file with the task ids shuffled (a random
permutation of 1..10N), as real nested payloads do not list children in id order.
With --flat, only the three flat files, each written by a process of its own:
records stream to disk as they are made, so memory stays a few MiB at any N
(the nested files group every task by project in memory, so they are for
scripts/bench's N, not for scripts/bench --scale's).
Usage: generate.py N OUT_DIR [--flat]
"""
import json
import multiprocessing
import os
import random
import sys

# One encoder for every record: json.dumps with separators makes a new one per call.
encode = json.JSONEncoder(separators=(",", ":")).encode


# Each record is written once, as the JSON text of the flat files (no key or value needs
# escaping), which streams at a few MB/s a core; the nested files read the same text back.
def people_lines(n, rng):
    cities = ["Berlin", "Lisbon", "Oslo", "Porto", "Quito", "Lagos", "Perth", "Kyoto"]
    for i in range(1, n + 1):
        yield (
            f'{{"id":{i},"first_name":"First{i}","last_name":"Last{i % 997}","email":"person{i}@example.com",'
            f'"born_on":"19{50 + i % 50:02d}-{1 + i % 12:02d}-{1 + i % 28:02d}","admin":{json_bool(i % 10 == 0)},'
            f'"address":{{"city":"{cities[i % len(cities)]}","street":"{i} Main St","zip":"{10000 + i % 89999}"}}}}'
        )


def projects_lines(n, rng):
    tags = ['"alpha"', '"beta"', '"gamma"']
    for i in range(1, 3 * n + 1):
        person = 1 + (i - 1) // 3
        members = ",".join(map(str, sorted({1 + rng.randrange(n) for _ in range(3)})))
        budget = f"{rng.randrange(100000)}.{rng.randrange(100):02d}"
        yield (
            f'{{"id":{i},"name":"Project {i}","person_id":{person},"team_member_ids":[{members}],'
            f'"tags":[{",".join(tags[: 1 + i % 3])}],"budget":"{budget}",'
            f'"archived":{json_bool(i % 7 == 0)}}}'
        )


def tasks_lines(n, rng):
    for i in range(1, 10 * n + 1):
        due = "null" if i % 4 == 0 else f'"2024-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:00.{i % 1000:03d}Z"'
        yield (
            f'{{"id":{i},"title":"Task {i}","project_id":{1 + (i - 1) % (3 * n)},"done":{json_bool(i % 3 == 0)},'
            f'"due_at":{due},"estimate":"{i % 40}.{i % 4 * 25:02d}"}}'
        )


def json_bool(value):
    return "true" if value else "false"


def people(n, rng):
    return map(json.loads, people_lines(n, rng))


def projects(n, rng):
    return map(json.loads, projects_lines(n, rng))


def tasks(n, rng):
    return map(json.loads, tasks_lines(n, rng))


def write_array(path, records, block=10000):
    """Writes the records as a JSON array, one a line, `block` records a write; records are dicts
    or their JSON text. The file appears under its name only when complete (a run stopped midway
    leaves PATH.part)."""
    with open(path + ".part", "w") as out:
        out.write("[\n")
        lines = []
        separator = ""
        for record in records:
            lines.append(record if isinstance(record, str) else encode(record))
            if len(lines) == block:
                out.write(separator + ",\n".join(lines))
                separator = ",\n"
                lines = []
        if lines:
            out.write(separator + ",\n".join(lines))
        out.write("\n]\n")
    os.replace(path + ".part", path)


FLAT = {"people": (people_lines, 1), "projects": (projects_lines, 2), "tasks": (tasks_lines, 3)}


def write_flat(name, n, out):
    lines, seed = FLAT[name]
    write_array(os.path.join(out, f"{name}.json"), lines(n, random.Random(seed)))


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
    if sys.argv[3:] not in ([], ["--flat"]):
        sys.exit("usage: generate.py N OUT_DIR [--flat]")
    flat_only = sys.argv[3:] == ["--flat"]
    os.makedirs(out, exist_ok=True)
    if flat_only:
        workers = [multiprocessing.Process(target=write_flat, args=(name, n, out)) for name in FLAT]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        if any(worker.exitcode != 0 for worker in workers):
            sys.exit("generate.py: a writer failed")
        return
    for name in FLAT:
        write_flat(name, n, out)
    os.makedirs(os.path.join(out, "nested"), exist_ok=True)
    os.makedirs(os.path.join(out, "shuffled", "nested"), exist_ok=True)
    write_array(os.path.join(out, "nested", "people.json"), nested(n, 2))
    write_array(os.path.join(out, "shuffled", "nested", "people.json"), nested(n, 2, shuffled_ids=True))


if __name__ == "__main__":
    main()
