"""A Python without libcairo, for tests: put this folder first on PYTHONPATH and the
cairo library cannot be found or loaded, exactly as on a slim machine where it is not
installed (cairocffi's own search fails, and ``import cairosvg`` raises its OSError)."""

import ctypes.util

import cffi

_find_library = ctypes.util.find_library
_dlopen = cffi.FFI.dlopen


def _no_cairo(name):
    return name is not None and "cairo" in str(name).lower()


def find_library(name):
    return None if _no_cairo(name) else _find_library(name)


def dlopen(self, name, *args, **kwargs):
    if _no_cairo(name):
        raise OSError(
            f"cannot load library '{name}': {name}: cannot open shared object file: No such file or directory"
        )
    return _dlopen(self, name, *args, **kwargs)


ctypes.util.find_library = find_library
cffi.FFI.dlopen = dlopen
