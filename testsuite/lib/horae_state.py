# SPDX-License-Identifier: GPL-2.0-or-later
"""horae_state: read and write a Horae state file as src/common/state.c
does, for tests that make a file the plugins did not (an older format, a
file of another age): a header line {"format", "version", "bytes",
"fnv1a64"} and the JSON body, whose FNV-1a 64-bit hash is written here
independently of state.c.

    import horae_state                  # PYTHONPATH=testsuite/lib
    head, doc = horae_state.read(path)
    horae_state.write(path, head["format"], head["version"], doc)
"""
import json


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for c in data:
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return h


def read(path):
    """The header and the body of path, both as parsed JSON."""
    with open(path) as f:
        head, body = f.read().split("\n")[:2]
    return json.loads(head), json.loads(body)


def write(path, kind, version, doc):
    """doc saved to path as format kind, version version."""
    body = json.dumps(doc, separators=(",", ":")).encode()
    head = '{"format":"%s","version":%d,"bytes":%d,"fnv1a64":"%016x"}\n' % (
        kind, version, len(body), fnv1a64(body))
    with open(path, "wb") as f:
        f.write(head.encode() + body + b"\n")
