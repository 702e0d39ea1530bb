#!/usr/bin/env python3
"""scripts/check_include_cycles.py on small trees written to a temporary folder."""
import os
import subprocess
import sys
import tempfile
import unittest

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                     "check_include_cycles.py")


class IncludeCyclesTest(unittest.TestCase):
    def check(self, files):
        """Writes {path: text} to a fresh tree and runs the check on it: (exit status, output)."""
        with tempfile.TemporaryDirectory() as root:
            for path, text in files.items():
                os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(root, path), "w") as out:
                    out.write(text)
            run = subprocess.run([sys.executable, CHECK, root], capture_output=True, text=True)
            return run.returncode, run.stdout + run.stderr

    def test_a_tree_without_cycle_passes(self):
        status, out = self.check({
            "lib/a.h": '#include "lib/b.h"\n',
            "lib/a.cpp": '#include "lib/a.h"\n#include "b.h"\n#include <vector>\n',
            "lib/b.h": "",
            "lib/b.cpp": '#include "lib/b.h"\n#include "generated/not_in_tree.h"\n',
        })
        self.assertEqual(status, 0, out)
        self.assertIn("no include cycle", out)

    def test_a_source_that_includes_a_header_that_includes_it_back_is_a_cycle(self):
        status, out = self.check({
            "lib/a.h": "",
            "lib/a.cpp": '#include "lib/a.h"\n#include "lib/b.h"\n',
            "lib/b.h": '#include "lib/a.h"\n',
        })
        self.assertEqual(status, 1, out)
        self.assertIn("include cycle among 2 components: lib/a, lib/b", out)
        self.assertIn("lib/a.cpp → lib/b.h → lib/a.h", out)

    def test_includes_resolve_relative_to_the_including_file(self):
        status, out = self.check({
            "x/p.h": '#include "q.h"\n',
            "x/q.h": "",
            "x/q.cpp": '#include "../x/p.h"\n',
        })
        self.assertEqual(status, 1, out)
        self.assertIn("x/p.h → x/q.h (q.cpp) → x/p.h", out)

    def test_a_longer_cycle_is_one_chain_through_every_member(self):
        status, out = self.check({
            "a.h": '#include "b.h"\n',
            "b.h": '  #  include "c.h"\n',
            "c.h": "",
            "c.cpp": '#include "a.h"\n',
            "d.h": '#include "a.h"\n',  # depends on the cycle, is no part of it
        })
        self.assertEqual(status, 1, out)
        self.assertIn("include cycle among 3 components: a, b, c\n", out)
        self.assertIn("  a.h → b.h → c.h (c.cpp) → a.h\n", out)
        self.assertNotIn("d.h", out)

    def test_an_internal_header_belongs_to_its_component(self):
        files = {
            "isa/asm.h": "",
            "isa/asm.cpp": '#include "isa/asm.h"\n#include "isa/asm_internal.h"\n',
            "isa/asm_internal.h": '#include "isa/asm.h"\n',
            "isa/asm_encode.cpp": '#include "isa/asm_internal.h"\n',
        }
        self.assertEqual(self.check(files)[0], 0)
        # Without x.h or x.cpp next to it, x_internal.h is a component of its own.
        status, out = self.check({
            "y_internal.h": '#include "z.h"\n',
            "z.h": "",
            "z.cpp": '#include "y_internal.h"\n',
        })
        self.assertEqual(status, 1, out)

    def test_build_and_hidden_folders_are_skipped(self):
        cycle = {"a.h": '#include "b.h"\n', "b.h": '#include "a.h"\n'}
        for folder in ("build", "build-asan", ".git"):
            status, out = self.check({f"{folder}/{path}": text for path, text in cycle.items()})
            self.assertEqual(status, 0, f"{folder}: {out}")
        self.assertEqual(self.check(cycle)[0], 1)


if __name__ == "__main__":
    unittest.main()
