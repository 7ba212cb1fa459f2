#!/usr/bin/env python3
"""Checks the include graph of the public headers: check_include_graph.py INCLUDE_DIR

The rules are docs/architecture.md's ("what each folder may include"):

1. Layers. Every header belongs to one layer; it includes headers of its own
   layer or of a layer below, never above:
     0 foundation   bem/version.hpp, bem/prng.hpp, bem/detail/
     1 platform     bem/platform/
     2 machine      bem/machine/, bem/circuits/, bem/route/, bem/prover/
     3 harness      bem/harness/, tasks/, metrics/
     4 models       bem/nn/, bem/learn/
     5 plugin       bem/plugin/
     6 umbrella     bem/bem.hpp
   So the machine includes nothing from tasks/ or metrics/: it knows no
   benchmark.
2. Concept headers never include a model: each may include only the
   foundation and the vocabulary listed for it below.
3. A deprecated forwarding header (first line "Deprecated forwarding
   header") includes exactly the one header it names, and that header exists.
4. Every `#include <bem/...>`, `<tasks/...>`, `<metrics/...>` names a file
   that exists.

Prints every violation with file and line; exit 1 if there is one.
"""
import pathlib
import re
import sys

LAYERS = [
    (0, ("bem/version.hpp", "bem/prng.hpp", "bem/detail/")),
    (1, ("bem/platform/",)),
    (2, ("bem/machine/", "bem/circuits/", "bem/route/", "bem/prover/")),
    (3, ("bem/harness/", "tasks/", "metrics/")),
    (4, ("bem/nn/", "bem/learn/")),
    (5, ("bem/plugin/",)),
    (6, ("bem/bem.hpp",)),
]
LAYER_NAMES = {0: "foundation", 1: "platform", 2: "machine", 3: "harness", 4: "models", 5: "plugin", 6: "umbrella"}

FOUNDATION = ("bem/version.hpp", "bem/prng.hpp", "bem/detail/")
# Concept header -> what it may include besides the foundation: the
# vocabulary its requirements are written in, never a model.
CONCEPTS = {
    "bem/circuits/circuit.hpp": ("bem/machine/lanes.hpp",),
    "bem/route/router.hpp": ("bem/machine/identifier.hpp",),
    "bem/prover/sat_backend.hpp": ("bem/prover/cnf.hpp",),
    "bem/machine/observation.hpp": ("bem/machine/state.hpp", "bem/machine/lanes.hpp"),
    "bem/harness/sequence_model.hpp": ("bem/harness/parameters.hpp", "tasks/batch.hpp"),
    "bem/harness/benchmark.hpp": ("bem/harness/parameters.hpp", "tasks/batch.hpp", "metrics/metric_value.hpp"),
    "tasks/concepts.hpp": ("bem/harness/parameters.hpp", "tasks/batch.hpp"),
    "bem/learn/bandit_policy.hpp": (),
}

INCLUDE = re.compile(r'^\s*#\s*include\s*<((?:bem|tasks|metrics)/[^>]+)>')
FORWARD = re.compile(r"Deprecated forwarding header: <([^>]+)> moved to <([^>]+)>")


def layer_of(header):
    for layer, prefixes in LAYERS:
        if any(header == p or (p.endswith("/") and header.startswith(p)) for p in prefixes):
            return layer
    return None


def includes(path):
    for number, line in enumerate(path.read_text().splitlines(), 1):
        m = INCLUDE.match(line)
        if m:
            yield number, m.group(1)


def check(root):
    root = pathlib.Path(root)
    problems = []
    headers = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".hpp", ".h"))
    names = {p.relative_to(root).as_posix() for p in headers}
    for path in headers:
        name = path.relative_to(root).as_posix()
        text = path.read_text()
        edges = list(includes(path))
        for number, target in edges:
            if target not in names:
                problems.append(f"{name}:{number}: includes <{target}>, which does not exist")
        forward = FORWARD.search(" ".join(text.splitlines()[:2]))
        if forward:
            old, new = forward.groups()
            if old != name:
                problems.append(f"{name}:1: forwarding header names itself <{old}>")
            if [t for _, t in edges] != [new]:
                problems.append(f"{name}: forwarding header must include exactly <{new}>, includes "
                                + ", ".join(f"<{t}>" for _, t in edges))
            continue
        layer = layer_of(name)
        if layer is None:
            problems.append(f"{name}: in no layer of tests/api/check_include_graph.py (add its folder there "
                            "and to docs/architecture.md)")
            continue
        for number, target in edges:
            if target not in names:
                continue
            if target in CONCEPTS and name in CONCEPTS:
                continue  # concept headers may build on one another
            target_layer = layer_of(target)
            if target_layer is not None and target_layer > layer and not is_forwarding(root / target):
                problems.append(f"{name}:{number}: includes <{target}> ({LAYER_NAMES[target_layer]}) from the "
                                f"{LAYER_NAMES[layer]} layer: an upward include")
            if is_forwarding(root / target):
                problems.append(f"{name}:{number}: includes the deprecated <{target}>")
        if name in CONCEPTS:
            allowed = CONCEPTS[name]
            for number, target in edges:
                if target.startswith(FOUNDATION) or target in allowed or target in CONCEPTS:
                    continue
                problems.append(f"{name}:{number}: concept header includes <{target}>; a concept header "
                                f"includes only the foundation and {', '.join(allowed)}")
    return problems, len(headers)


def is_forwarding(path):
    try:
        with open(path) as f:
            return "Deprecated forwarding header" in f.readline()
    except OSError:
        return False


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems, count = check(argv[1])
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include-graph violations")
        return 1
    print(f"{count} headers: every include goes down or sideways, concept headers include no model")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
