"""CTest `python_pip`: the package installs with pip (pyproject.toml, python/build_backend/) and
builds a complete wheel.

    pip_install_check.py SOURCE BUILD_DIR WORK_DIR VERSION

Makes a venv (with Debian's packages: --system-site-packages) in WORK_DIR, pip-installs SOURCE
into it with build-dir=BUILD_DIR (an already built tree, so the CMake build has nothing to do),
imports the installed package from another directory, then builds a wheel and reads it. Not
named test_*.py: the pytest suite of the build tree (CTest `python`) does not collect it.
"""
import base64
import csv
import hashlib
import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import zipfile

PACKAGE_FILES = ["__init__.py", "__init__.pyi", "py.typed"]  # and the extension _impactset*.so

IMPORT_CHECK = """
import importlib.metadata, sys, impactset
venv, version = sys.argv[1:]
assert impactset.__file__.startswith(venv + "/"), f"imported {impactset.__file__}, not the venv's"
assert impactset.__version__ == version, f"__version__ {impactset.__version__} != {version}"
installed = importlib.metadata.version("impactset")
assert installed == version, f"pip installed version {installed}, not {version}"
samples = impactset.sample(impactset.Problem.from_system("rocking-block"), samples=100)
assert samples.count == 100, samples.count
"""


def main(source, build_dir, work, version):
    shutil.rmtree(work, ignore_errors=True)
    venv = work / "venv"
    run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)])
    # Offline, from Debian's packages only, into the already built tree.
    pip_options = ["--no-build-isolation", "--no-index", "--no-deps",
                   "--config-settings", f"build-dir={build_dir}"]
    pip = str(venv / "bin" / "pip")
    # pip also refuses a wheel whose tag does not fit this interpreter.
    run([pip, "install", *pip_options, str(source)])
    # -I: neither PYTHONPATH nor the user's site-packages nor the current directory may supply
    # the package; from / so that no directory of the trees is on the path.
    run([str(venv / "bin" / "python"), "-I", "-c", IMPORT_CHECK, str(venv), version], cwd="/")

    wheels = work / "wheels"
    run([pip, "wheel", *pip_options, "-w", str(wheels), str(source)])
    found = sorted(wheels.glob("impactset-*.whl"))
    check(len(found) == 1, f"expected one impactset wheel in {wheels}, found {found}")
    check_wheel(found[0], version)
    print(f"installed and imported impactset {version}; {found[0].name} is complete")


def check_wheel(path, version):
    with zipfile.ZipFile(path) as wheel:
        names = set(wheel.namelist())
        extensions = [name for name in names
                      if name.startswith("impactset/_impactset") and name.endswith(".so")]
        check(len(extensions) == 1, f"{path.name}: extensions {extensions}, expected one")
        for name in PACKAGE_FILES:
            check(f"impactset/{name}" in names, f"{path.name}: no impactset/{name}")
        dist_infos = {name.split("/")[0] for name in names if ".dist-info/" in name}
        dist_info = f"impactset-{version}.dist-info"
        check(dist_infos == {dist_info}, f"{path.name}: {sorted(dist_infos)}, not {dist_info}")
        metadata = wheel.read(f"{dist_info}/METADATA").decode().splitlines()
        check(f"Version: {version}" in metadata, f"{path.name}: METADATA has no Version: {version}")
        check("Name: impactset" in metadata, f"{path.name}: METADATA has no Name: impactset")
        check_record(wheel, f"{dist_info}/RECORD", names)


def check_record(wheel, record_name, names):
    """RECORD lists every other file with its sha256 (pip trusts it when it installs)."""
    rows = {row[0]: row[1] for row in csv.reader(wheel.read(record_name).decode().splitlines())}
    check(set(rows) == names, f"RECORD lists {sorted(set(rows) ^ names)} wrongly")
    for name, hash_ in rows.items():
        if name != record_name:
            digest = base64.urlsafe_b64encode(hashlib.sha256(wheel.read(name)).digest())
            check(hash_ == "sha256=" + digest.rstrip(b"=").decode(), f"RECORD: {name}: wrong hash")


def run(command, cwd=None):
    print("$", shlex.join(command), flush=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1", PIP_NO_INPUT="1")
    status = subprocess.run(command, cwd=cwd, env=env).returncode
    check(status == 0, f"{shlex.join(command[:2])} ... exited with status {status} (output above)")


def check(condition, message):
    if not condition:
        sys.exit(f"FAILED: {message}")


if __name__ == "__main__":
    source, build_dir, work, version = sys.argv[1:]
    main(pathlib.Path(source), pathlib.Path(build_dir), pathlib.Path(work), version)
