"""Build and install the `fanout` Python package: `pip install .` (see docs/PYTHON.md).

    python3 -m venv --system-site-packages venv    # Debian's numpy (and torch) stay visible
    venv/bin/pip install --no-build-isolation .    # offline, with Debian's setuptools

The extension `fanout._fanout` is built by the project's own CMake (the same CMakeLists.txt,
sources, flags and static libfanout as `cmake --build build`): setup.py configures a private
build directory (build-pip/, incremental on the next install) for the interpreter that runs it,
builds the one target `fanout_python` and copies the module next to python/fanout/*.py. So the
package and the C library never drift apart, and every build option works here too:
FANOUT_CMAKE_ARGS adds CMake arguments (e.g. "-DFO_WITH_MPI=OFF"), CMAKE_BUILD_PARALLEL_LEVEL
sets the number of compile jobs. Needs what the CMake build needs (cmake, a C compiler, the
-dev packages of scripts/bootstrap.sh, python3-dev and numpy for the target interpreter).
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(fanout VERSION ([0-9.]+)", f.read())
    if not m:
        sys.exit("setup.py: no 'project(fanout VERSION x.y.z' in CMakeLists.txt")
    return m.group(1)


class CMakeBuild(build_ext):
    """build_ext that runs the project's CMake for the `fanout_python` target."""

    def build_extension(self, ext):
        build = os.path.join(ROOT, "build-pip", "cmake")
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        configure = [
            "cmake", "-S", ROOT, "-B", build,
            "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
            "-DFO_BUILD_TESTS=OFF", "-DFO_BUILD_BENCH=OFF", "-DFO_WITH_PYTHON=ON",
            f"-DFO_PYTHON_EXECUTABLE={sys.executable}",
        ] + shlex.split(os.environ.get("FANOUT_CMAKE_ARGS", ""))
        for cmd in (configure, ["cmake", "--build", build, "--target", "fanout_python",
                                "-j", jobs]):
            print("setup.py:", " ".join(shlex.quote(c) for c in cmd), flush=True)
            subprocess.check_call(cmd)
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = os.path.join(build, "python", "fanout", "_fanout" + suffix)
        if not os.path.exists(built):
            sys.exit(f"setup.py: CMake did not build {built}: is python3-dev (and numpy) "
                     f"there for {sys.executable}? See the CMake output above")
        dest = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(built, dest)


setup(
    name="fanout",
    version=project_version(),
    description="Multi-hop neighbor sampling for GNN training (C library, PyG-style loaders)",
    long_description=open(os.path.join(ROOT, "README.md"), encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    license="see the repository",
    python_requires=">=3.9",
    install_requires=["numpy"],
    package_dir={"": "python"},
    packages=["fanout"],
    ext_modules=[Extension("fanout._fanout", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": os.path.join("build-pip", "setuptools")},
             "egg_info": {"egg_base": "build-pip"}},
    zip_safe=False,
)
