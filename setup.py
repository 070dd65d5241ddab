"""The package's contents, which pyproject.toml cannot say alone: every top-level folder with an
``__init__.py`` is a room of the application (a new room needs no line here), the tests and the scripts
are not; each room carries every other file of its folders (templates, static files, the shipped word
list, ...); the translations (``locale/``), the reverse proxy's template (``deploy/``) and the guides'
Markdown (``docs/``) travel inside ``arbiter/`` as ``arbiter/locale``, ``arbiter/deploy`` and
``arbiter/docs`` (``arbiter/settings.py`` and ``guides/build.py`` find them there).
Everything else is in pyproject.toml; tests/site/test_package.py checks the wheel."""

from pathlib import Path

from setuptools import find_packages, setup

HERE = Path(__file__).resolve().parent
CARRIED = {"arbiter.locale": "locale", "arbiter.deploy": "deploy", "arbiter.docs": "docs"}
PACKAGES = find_packages(where=str(HERE), exclude=["tests", "tests.*", "scripts", "scripts.*"])


def data(package: str) -> list[str]:
    """Every file under the package's folder that is neither Python nor in one of its subpackages."""
    folder = HERE / CARRIED.get(package, package.replace(".", "/"))
    files = []
    for path in folder.rglob("*"):
        inside = path.relative_to(folder)
        if (
            not path.is_file()
            or path.suffix in (".py", ".pyc")
            or "__pycache__" in inside.parts
            or any((folder / Path(*inside.parts[: depth + 1]) / "__init__.py").is_file()
                   for depth in range(len(inside.parts) - 1))
        ):  # fmt: skip
            continue
        files.append(inside.as_posix())
    return sorted(files)


setup(
    packages=[*PACKAGES, *CARRIED],
    package_dir=CARRIED,
    package_data={package: data(package) for package in [*PACKAGES, *CARRIED]},
)
