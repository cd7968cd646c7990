"""The test suite.  Imported first, before any conftest or test module."""

import os
import sys

# The suite starts hundreds of processes (the command line, `serve`, pytest in pytest),
# each importing matchledger: where the environment forbids writing bytecode
# (PYTHONDONTWRITEBYTECODE, set on some CI images), every one of them compiled every
# module from source, and each xdist worker rewrote every test module's asserts anew:
# about a minute and a half of a run on two cores.  A test run writes bytecode, as
# Python does by default (``__pycache__`` is ignored by git and left out of the sdist).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
