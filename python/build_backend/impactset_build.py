"""The in-tree PEP 517 build backend of the Python module `impactset` (pyproject.toml).

It compiles nothing itself: CMake builds the target impactset_python, which leaves a complete
package directory, <build dir>/python/impactset/ (the extension, __init__.py, the stubs,
py.typed), and the wheel is that directory plus its .dist-info. Standard library only, so it runs
offline under `pip install --no-build-isolation` with nothing but Debian's packages.

Config setting `build-dir` (pip: --config-settings build-dir=PATH, relative to the source tree)
chooses the CMake build directory; the default, build/pip/, persists so that later installs
rebuild only what changed. A directory that already holds a CMakeCache.txt keeps its settings:
it is built, not configured with this backend's options, so an existing tree can be reused.

The version is the CMake project's (project(impactset VERSION ...) in CMakeLists.txt); the other
metadata is the [project] table of pyproject.toml.
"""
import base64
import csv
import functools
import hashlib
import io
import os
import pathlib
import re
import shlex
import shutil
import stat
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile

SOURCE = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = "impactset"
TARGET = "impactset_python"
# A build directory configured here builds the module and the libraries it links, nothing else.
CONFIGURE_OPTIONS = [
    "-DCMAKE_BUILD_TYPE=Release",
    "-DIMPACTSET_BUILD_TESTS=OFF",
    "-DIMPACTSET_BUILD_BENCHMARKS=OFF",
    "-DIMPACTSET_FUZZ=OFF",
    "-DIMPACTSET_BUILD_PYTHON=ON",
]
MISSING_PACKAGES_HINT = (
    "install Debian's python3-dev and pybind11-dev (scripts/install-deps.sh installs them)")
LOG_TAIL_LINES = 40
# A wheel's entries get a fixed date, so that equal builds give equal wheels.
ARCHIVE_DATE = (1980, 1, 1, 0, 0, 0)


class BuildError(Exception):
    """A step of the build failed; the message names the step and where its log is."""


def reported(hook):
    """pip shows a failed hook's output: the message alone, since a traceback through this
    module would only bury it."""
    @functools.wraps(hook)
    def run_hook(*args, **kwargs):
        try:
            return hook(*args, **kwargs)
        except BuildError as error:
            raise SystemExit(f"error: {error}") from None
    return run_hook


# --- The PEP 517 / PEP 660 hooks -----------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []  # cmake, the compilers, pybind11 and numpy all come from Debian


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


@reported
def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    """The .dist-info without building: pip reads the name and version before the long build."""
    dist_info = pathlib.Path(metadata_directory) / dist_info_name()
    dist_info.mkdir(parents=True, exist_ok=True)
    for name, data in dist_info_files().items():
        (dist_info / name).write_bytes(data)
    return dist_info.name


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):
    return prepare_metadata_for_build_wheel(metadata_directory, config_settings)


@reported
def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    package_dir, extension = build_package(build_dir(config_settings))
    files = {}
    for path in package_files(package_dir, extension):
        name = f"{PACKAGE}/{path.relative_to(package_dir).as_posix()}"
        files[name] = (path.read_bytes(), path.stat().st_mode)
    return write_wheel(pathlib.Path(wheel_directory), files)


@reported
def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """An editable install imports the package of the build directory itself (a .pth file puts
    <build dir>/python on sys.path): `cmake --build <build dir> --target impactset_python`
    updates it, the .py and .pyi files included."""
    package_dir, _ = build_package(build_dir(config_settings))
    pth = f"{package_dir.parent}\n".encode()
    return write_wheel(pathlib.Path(wheel_directory),
                       {f"__editable__.{PACKAGE}.pth": (pth, 0o644)})


@reported
def build_sdist(sdist_directory, config_settings=None):
    base = f"{PACKAGE}-{project_version()}"
    path = pathlib.Path(sdist_directory) / f"{base}.tar.gz"
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for relative in source_files():
            tar.add(SOURCE / relative, arcname=f"{base}/{relative}", recursive=False,
                    filter=anonymous)
        add_bytes(tar, f"{base}/PKG-INFO", metadata_text().encode())
    return path.name


# --- Metadata ------------------------------------------------------------------------------------

def project_version():
    """x.y.z of project(impactset VERSION x.y.z ...) in the top-level CMakeLists.txt: the one place
    the version is written (the C++ code and the module's __version__ get it from CMake too)."""
    text = (SOURCE / "CMakeLists.txt").read_text()
    match = re.search(r"^\s*(?i:project)\s*\(\s*impactset\s+VERSION\s+([0-9]+(?:\.[0-9]+)*)\b",
                      text, re.MULTILINE)
    if not match:
        raise BuildError(f"{SOURCE / 'CMakeLists.txt'}: no `project(impactset VERSION x.y.z`")
    return match.group(1)


def project_table():
    """[project] of pyproject.toml. Keys this backend does not write into METADATA are refused,
    so that a new one (scripts, optional dependencies) cannot be silently dropped."""
    with open(SOURCE / "pyproject.toml", "rb") as f:
        project = tomllib.load(f)["project"]
    unknown = set(project) - {"name", "dynamic", "description", "requires-python", "dependencies"}
    if unknown:
        raise BuildError(f"pyproject.toml: [project] has {sorted(unknown)}, which "
                         f"{pathlib.Path(__file__).name} does not write into the metadata")
    return project


def metadata_text():
    project = project_table()
    lines = ["Metadata-Version: 2.1",
             f"Name: {project['name']}",
             f"Version: {project_version()}",
             f"Summary: {project['description']}",
             f"Requires-Python: {project['requires-python']}"]
    lines += [f"Requires-Dist: {requirement}" for requirement in project.get("dependencies", [])]
    return "\n".join(lines) + "\n"


def wheel_tag():
    """cpXY-cpXY-<platform> of the running interpreter, e.g. cp311-cp311-linux_x86_64: the
    extension is compiled for exactly this interpreter (it is the one CMake is given)."""
    if sys.implementation.name != "cpython":
        raise BuildError(f"the module is built for CPython, not {sys.implementation.name}")
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return f"{python}-{python}{sys.abiflags}-{platform}"


def dist_info_name():
    return f"{PACKAGE}-{project_version()}.dist-info"


def dist_info_files():
    """Every file of the .dist-info but RECORD, which lists the wheel once it is written."""
    generator = pathlib.Path(__file__).stem
    wheel = (f"Wheel-Version: 1.0\nGenerator: {generator}\n"
             f"Root-Is-Purelib: false\nTag: {wheel_tag()}\n")
    return {"METADATA": metadata_text().encode(), "WHEEL": wheel.encode(),
            "top_level.txt": f"{PACKAGE}\n".encode()}


# --- The CMake build -----------------------------------------------------------------------------

def build_dir(config_settings):
    value = (config_settings or {}).get("build-dir")
    if isinstance(value, list):  # given more than once: the last one wins
        value = value[-1]
    # The hooks run in the source tree (PEP 517), so a relative path is relative to it.
    return pathlib.Path(value).expanduser().resolve() if value else SOURCE / "build" / "pip"


def build_package(build):
    """Configures the build directory when new, builds impactset_python and returns the package
    directory and the extension in it."""
    new = ensure_configured(build)
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
    hint = " (a new build directory: the C++ libraries too, minutes)" if new else ""
    run_logged(["cmake", "--build", str(build), "--target", TARGET, "--parallel", jobs],
               build / "pip-build.log", f"building {TARGET} in {build} with {jobs} jobs{hint}")
    package_dir = build / "python" / PACKAGE
    return package_dir, built_extension(build, package_dir)


def ensure_configured(build):
    """Configures a new build directory (returns True) or checks an existing one."""
    new = not (build / "CMakeCache.txt").exists()
    if new:
        # The running interpreter, resolved: a venv's python links to the base interpreter, and
        # the build directory should outlive the venv.
        python = os.path.realpath(sys.executable)
        configure(build, [*CONFIGURE_OPTIONS, f"-DPython_EXECUTABLE={python}"])
    elif not module_enabled(build):
        # An existing tree without the module: its configure failed or found no pybind11. Once
        # more with its own settings (no -D), which picks up packages installed since.
        configure(build, [])
    if not module_enabled(build):
        raise BuildError(f"CMake turned the Python module off in {build} (\"Python module: off\" "
                         f"in {build / 'pip-configure.log'}): {MISSING_PACKAGES_HINT}")
    return new


def configure(build, options):
    build.mkdir(parents=True, exist_ok=True)
    run_logged(["cmake", "-S", str(SOURCE), "-B", str(build), *options],
               build / "pip-configure.log", f"configuring {build}")


def module_enabled(build):
    """Whether the last generate step of the tree made the target impactset_python. CMake lists
    every target's directory in TargetDirectories.txt, whatever the generator."""
    listing = build / "CMakeFiles" / "TargetDirectories.txt"
    return listing.exists() and any(
        line.rstrip().endswith(f"/{TARGET}.dir") for line in listing.read_text().splitlines())


def built_extension(build, package_dir):
    """The extension for the running interpreter; a tree configured for another Python (the
    build directory of another interpreter) is an error, not a wheel with the wrong tag."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    extension = package_dir / f"_{PACKAGE}{suffix}"
    if extension.exists():
        return extension
    others = sorted(path.name for path in package_dir.glob(f"_{PACKAGE}*"))
    if others:
        raise BuildError(f"{build} builds the module for another Python ({', '.join(others)}), "
                         f"not for {sys.executable} (*{suffix}): choose another build-dir")
    raise BuildError(f"the build made no {extension}: {MISSING_PACKAGES_HINT}")


def package_files(package_dir, extension):
    """The package as CMake laid it out, without bytecode caches or extensions of another
    interpreter."""
    files = []
    for path in sorted(package_dir.rglob("*")):
        relative = path.relative_to(package_dir)
        if not path.is_file() or "__pycache__" in relative.parts or path.suffix == ".pyc":
            continue
        if path.name.startswith(f"_{PACKAGE}") and path != extension:
            continue
        files.append(path)
    return files


def run_logged(command, log, what):
    """Runs a command with its output in `log`; on failure the error names the command and the
    log and shows the log's end (pip prints it)."""
    print(f"impactset: {what}; log: {log}", file=sys.stderr, flush=True)
    with open(log, "w") as out:
        out.write(f"$ {shlex.join(command)}\n")
        out.flush()
        try:
            status = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT).returncode
        except FileNotFoundError:
            raise BuildError(f"{command[0]} not found: install Debian's {command[0]} "
                             "(scripts/install-deps.sh)") from None
    if status != 0:
        tail = log.read_text(errors="replace").splitlines()[-LOG_TAIL_LINES:]
        raise BuildError(f"`{shlex.join(command)}` failed (exit status {status}); the end of its "
                         f"log {log}:\n" + "\n".join(tail))


# --- Archives ------------------------------------------------------------------------------------

def write_wheel(wheel_directory, files):
    """Writes <name>-<version>-<tag>.whl from {name in the wheel: (bytes, mode)}, the .dist-info
    last with RECORD (sha256 and size of every other file) at its end."""
    dist_info = dist_info_name()
    files = dict(files)
    for name, data in dist_info_files().items():
        files[f"{dist_info}/{name}"] = (data, 0o644)
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for name, (data, _) in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        writer.writerow([name, f"sha256={digest}", len(data)])
    writer.writerow([f"{dist_info}/RECORD", "", ""])
    files[f"{dist_info}/RECORD"] = (record.getvalue().encode(), 0o644)

    wheel_directory.mkdir(parents=True, exist_ok=True)
    path = wheel_directory / f"{PACKAGE}-{project_version()}-{wheel_tag()}.whl"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, (data, mode) in files.items():
            entry = zipfile.ZipInfo(name, date_time=ARCHIVE_DATE)
            entry.external_attr = (stat.S_IFREG | stat.S_IMODE(mode)) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    return path.name


def source_files():
    """The source tree's files, relative: in a git checkout the tracked and the untracked but not
    ignored ones; otherwise (an unpacked sdist) every file outside build directories."""
    if (SOURCE / ".git").exists() and shutil.which("git"):
        listing = subprocess.run(
            ["git", "-C", str(SOURCE), "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"], check=True, capture_output=True, text=True).stdout
        # A tracked file deleted in the working tree is still listed: skip it.
        return sorted(name for name in set(listing.split("\0"))
                      if name and os.path.lexists(SOURCE / name))
    files = []
    for directory, subdirectories, names in os.walk(SOURCE):
        here = pathlib.Path(directory).relative_to(SOURCE)
        subdirectories[:] = [d for d in subdirectories if not skipped_directory(here, d)]
        files += [(here / name).as_posix() for name in names if name != "PKG-INFO" or here.parts]
    return sorted(files)


def skipped_directory(parent, name):
    if name in {".git", "__pycache__", ".pytest_cache", "out"} or name.endswith(".egg-info"):
        return True
    if not parent.parts and name.startswith("build"):  # build/, build-*/ (.gitignore)
        return True
    return (SOURCE / parent / name / "pyvenv.cfg").exists()  # a venv


def anonymous(entry):
    entry.uid = entry.gid = 0
    entry.uname = entry.gname = ""
    return entry


def add_bytes(tar, name, data):
    entry = tarfile.TarInfo(name)
    entry.size = len(data)
    entry.mode = 0o644
    tar.addfile(entry, io.BytesIO(data))
