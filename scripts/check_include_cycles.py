#!/usr/bin/env python3
"""Fails when the project's components include each other in a cycle.

    scripts/check_include_cycles.py [ROOT]

ROOT is the source tree (default: the tree this script is in). Every .h and .cpp under it is read,
except hidden folders and build folders (names starting with "." or "build").

A component is a header with its source: `x.h` and `x.cpp` (the same path without the extension) are one
component `x`. A private header `x_internal.h` that sits next to `x.h` or `x.cpp` declares what the
component's own source files share, so it belongs to `x` too: `x.h`, `x.cpp` and `x_internal.h` are one
component, and their includes of each other are no cycle. A source file with no header of its own (say
`x_part.cpp`, which implements part of `x.h`) is a component of its own that nothing can include.

Component `a` depends on component `b` when a file of `a` has `#include "f"` and `f` is a file of `b`.
The name in quotes is looked up relative to the including file's folder first, then relative to ROOT (the
compiler's order for quoted includes with ROOT on the include path); a name found in neither (a generated
or a third-party header) is no dependency. Angle-bracket includes are system headers and are skipped.

The components that reach each other form a strongly connected component; each of those is reported with
its members and, for every member, a shortest cycle through it as a chain of includes:

    a.cpp → b.h → c.h (c.cpp) → a.h

reads "a.cpp includes b.h, which includes c.h; c.cpp includes a.h, back to a" (the file in parentheses is
the one of that component whose include leads on, when it is not the file included).

Exit status: 0 without a cycle, 1 with one (or when ROOT is no folder).
"""
import collections
import os
import re
import sys

SOURCE_SUFFIXES = (".h", ".cpp")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
INTERNAL_SUFFIX = "_internal"


def source_files(root):
    """The tree's .h and .cpp files, as paths relative to root with "/" separators, sorted."""
    files = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [d for d in subfolders if not d.startswith((".", "build"))]
        for name in names:
            if name.endswith(SOURCE_SUFFIXES):
                files.append(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
    return sorted(files)


def component_of(path, files):
    """The component a file belongs to: its path without extension, `x_internal` folded into `x`."""
    stem = os.path.splitext(path)[0]
    if stem.endswith(INTERNAL_SUFFIX):
        owner = stem[: -len(INTERNAL_SUFFIX)]
        if any(owner + suffix in files for suffix in SOURCE_SUFFIXES):
            return owner
    return stem


def quoted_includes(root, path):
    """The names in the file's `#include "..."` lines, in order."""
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as text:
        return [m.group(1) for m in map(INCLUDE.match, text) if m]


def resolve(include, includer, files):
    """The tree file a quoted include names (its folder first, then root), or None."""
    for candidate in (os.path.join(os.path.dirname(includer), include), include):
        candidate = os.path.normpath(candidate).replace(os.sep, "/")
        if candidate in files:
            return candidate
    return None


def component_graph(root):
    """{component: {dependency: (including file, included file)}}, one example include per edge."""
    files = set(source_files(root))
    graph = collections.defaultdict(dict)
    for path in sorted(files):
        source = component_of(path, files)
        graph[source]  # a component with no dependency is still a node
        for include in quoted_includes(root, path):
            target_file = resolve(include, path, files)
            if target_file is None:
                continue
            target = component_of(target_file, files)
            if target != source and target not in graph[source]:
                graph[source][target] = (path, target_file)
    return graph


def strongly_connected(graph):
    """Tarjan's strongly connected components with more than one member, each sorted (iterative)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    members = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == node:
                            break
                    if len(members) > 1:
                        found.append(sorted(members))
    return sorted(found)


def shortest_cycle(graph, start, members):
    """The components of a shortest cycle from start back to start inside members (breadth first)."""
    previous = {start: None}
    queue = collections.deque([start])
    while queue:
        node = queue.popleft()
        for successor in sorted(graph[node]):
            if successor not in members:
                continue
            if successor == start:
                path = [node]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return list(reversed(path))
            if successor not in previous:
                previous[successor] = node
                queue.append(successor)
    return [start]


def chain(graph, cycle):
    """A cycle of components as the includes that close it: `a.cpp → b.h (b.cpp) → a.h`."""
    steps = [graph[a][b] for a, b in zip(cycle, cycle[1:] + cycle[:1])]
    text = steps[0][0]
    for (_, included), (next_includer, _) in zip(steps, steps[1:]):
        text += " → " + included + ("" if next_includer == included else f" ({os.path.basename(next_includer)})")
    return text + " → " + steps[-1][1]


def rotate_to_smallest(cycle):
    """The same cycle starting at its smallest member, so that each is reported once."""
    first = cycle.index(min(cycle))
    return tuple(cycle[first:] + cycle[:first])


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.isdir(root):
        print(f"check_include_cycles: {root} is no folder", file=sys.stderr)
        return 1
    graph = component_graph(root)
    groups = strongly_connected(graph)
    for members in groups:
        print(f"include cycle among {len(members)} components: {', '.join(members)}")
        cycles = []
        for member in members:
            cycle = rotate_to_smallest(shortest_cycle(graph, member, set(members)))
            if cycle not in cycles:
                cycles.append(cycle)
        for cycle in cycles:
            print("  " + chain(graph, list(cycle)))
    if groups:
        print(f"{len(groups)} include cycle(s): move what both sides need into a component of its own "
              "(scripts/check_include_cycles.py)")
        return 1
    print(f"no include cycle among {len(graph)} components")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
