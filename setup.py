# SPDX-License-Identifier: Apache-2.0
# `python3 -m pip install --no-build-isolation .`: the sinew package (python/sinew) and its C
# extension, compiled from this checkout with the library's sources (src/) linked in; needs
# Debian's python3-dev, python3-numpy, python3-setuptools and libexpat1-dev, no network.
# docs/python.md "Install". CMake builds the same extension with -DSN_BUILD_PYTHON=ON.
import glob
import os
import re

import numpy
from setuptools import Extension, setup

here = os.path.dirname(os.path.abspath(__file__))


def rel(pattern):
    return sorted(os.path.relpath(p, here) for p in glob.glob(os.path.join(here, pattern),
                                                                recursive=True))


with open(os.path.join(here, "CMakeLists.txt")) as f:
    version = re.search(r"project\(sinew VERSION ([0-9.]+)", f.read()).group(1)

ext = Extension(
    "sinew._sinew",
    sources=rel("python/src/*.c") + rel("src/**/*.c"),
    include_dirs=["include", "src", numpy.get_include()],
    define_macros=[("SN_BUILDING", None)],
    libraries=["expat", "m"],
    # the library's own flags (CMakeLists.txt): C11, no contraction of a*b+c, so results equal
    # the CMake build's to the bit
    extra_compile_args=["-std=c11", "-O3", "-ffp-contract=off", "-fvisibility=hidden", "-pthread"],
    extra_link_args=["-pthread"],
)

setup(
    name="sinew",
    version=version,
    description="Articulated robots in generalized coordinates: hard contacts, exact loops",
    license="Apache-2.0",
    packages=["sinew"],
    package_dir={"sinew": "python/sinew"},
    ext_modules=[ext],
    python_requires=">=3.9",
    install_requires=["numpy"],
    # setuptools' scratch files go to build-pip/, not into CMake's build/
    options={"build": {"build_base": "build-pip"}, "egg_info": {"egg_base": "build-pip"}},
)
