"""Build hooks of the wheel (the metadata is in pyproject.toml).

The R learners have one copy, in the R package (``R/inst/batch.R``,
``R/inst/weka_jvm.R``, the Weka helper ``R/inst/java/pybcv-weka.jar``); a
wheel carries them as package data in ``r_bridge/R/``, where
:mod:`r_bridge.files` finds them.  The jar is built from ``java/src`` by
``scripts/build_java.sh`` when it is missing (a JDK and R's RWekajars are
needed); without it the wheel still works, the Weka learners then run
through RWeka's slower interface and R says so once per session.
"""
import os
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))
R_FILES = ("batch.R", "weka_jvm.R")
JAR = os.path.join("java", "pybcv-weka.jar")


class build_py_with_r(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return          # an editable install reads R/inst of the checkout
        inst = os.path.join(ROOT, "R", "inst")
        dest = os.path.join(self.build_lib, "r_bridge", "R")
        os.makedirs(os.path.join(dest, "java"), exist_ok=True)
        for name in R_FILES:
            shutil.copyfile(os.path.join(inst, name), os.path.join(dest, name))
        jar = os.path.join(inst, JAR)
        script = os.path.join(ROOT, "scripts", "build_java.sh")
        if os.path.isfile(script) and os.path.isdir(os.path.join(ROOT, "java", "src")):
            subprocess.run(["bash", script], cwd=ROOT, check=False)
        if os.path.isfile(jar):
            shutil.copyfile(jar, os.path.join(dest, JAR))
        else:
            print("pybcv: WARNING: R/inst/java/pybcv-weka.jar could not be built (see above); "
                  "the wheel's Weka learners will run through RWeka's slower interface",
                  file=sys.stderr)


setup(cmdclass={"build_py": build_py_with_r})
