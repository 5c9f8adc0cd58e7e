#!/usr/bin/env python3
"""Validates mapping files against rmap's JSON Schema, as an editor would.

Usage: validate.py SCHEMA.json MAPPING.yml...

Checks that SCHEMA.json is itself a valid draft 2020-12 schema, then prints one
line per mapping file: 'FILE: ok', or 'FILE: <path>: <message>' for each error.
Exits 1 when a file does not validate. YAML is read as YAML 1.2's core schema
reads it (what yaml-language-server and libyaml-based rmap see): no dates, and
only true/false as booleans; mapping keys are strings, as in JSON.
"""
import json
import re
import sys

import yaml
from jsonschema import Draft202012Validator


class CoreLoader(yaml.SafeLoader):
    """PyYAML's safe loader without YAML 1.1's timestamps and yes/no/on/off booleans."""


CoreLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag not in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:bool")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def as_json(value):
    """The value with every mapping key a string, as JSON has them."""
    if isinstance(value, dict):
        return {str(key): as_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_json(item) for item in value]
    return value


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        schema = json.load(file)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    failed = False
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as file:
            document = as_json(yaml.load(file, Loader=CoreLoader))
        errors = sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))
        for error in errors:
            where = "/".join(str(part) for part in error.absolute_path)
            print(f"{path}: /{where}: {error.message}")
        if not errors:
            print(f"{path}: ok")
        failed = failed or bool(errors)
    sys.exit(1 if failed else 0)


main()
