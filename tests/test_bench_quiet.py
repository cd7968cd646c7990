"""The benchmark says nothing a reader must skip: its sample matches are dealt from
small seeds on purpose, and `new`'s warning about them is not repeated into its output,
while anything else a script says still is."""

import io

from bench import corpus
from bench.append import bench_append, passed_on


def test_the_append_rows_print_no_small_seed_warning(tmp_path, capfd):
    chosen = corpus.mix(corpus.templates(), 12)
    assert any("--seed" in template.create_line for template in chosen)  # a small seed is dealt from
    bench_append(tmp_path, chosen, 1)
    said = capfd.readouterr()
    assert "can be found" not in said.err + said.out


def test_what_else_a_script_says_is_passed_on():
    shown = io.StringIO()
    passed_on(
        "warning: seed 3 can be found by trying every smaller seed, and whoever sees one deal ...\n"
        "warning: something else\n",
        shown,
    )
    assert shown.getvalue() == "warning: something else\n"
