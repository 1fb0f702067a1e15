"""The build step of `pip install --no-build-isolation .`: CMake builds the pybind11 module
(tools/python) for the interpreter running pip, and setuptools packs it."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def project_version():
    """The version in the top CMakeLists.txt's project(mancala VERSION x.y.z), the one place it is
    kept."""
    cmake_lists = (Path(__file__).resolve().parent / "CMakeLists.txt").read_text()
    found = re.search(r"^project\(mancala VERSION ([0-9]+\.[0-9]+\.[0-9]+)\b", cmake_lists, re.M)
    if not found:
        raise RuntimeError("no project(mancala VERSION ...) in CMakeLists.txt")
    return found.group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        source = Path(__file__).resolve().parent
        build = Path(self.build_temp).resolve() / "cmake"
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        configure = ["cmake", "-S", str(source), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     "-DMANCALA_TESTS=OFF", "-DMANCALA_PYTHON=ON",
                     f"-DPython3_EXECUTABLE={sys.executable}"]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "mancala_python",
                        "--parallel", str(os.cpu_count() or 1)], check=True)
        built = next((build / "python").glob("mancala*" + Path(target).suffix))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(
    version=project_version(),
    ext_modules=[CMakeExtension("mancala")],
    cmdclass={"build_ext": CMakeBuild},
    # Away from build/, the CMake build directory of the scripts.
    options={"build": {"build_base": "build-pip"}},
)
