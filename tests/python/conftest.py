"""Fixtures of the Python module's tests: the built `mancala` binary (for comparing with the
command line) and small endgame tables built through the module."""
import os
import re
import subprocess
from pathlib import Path

import pytest

import mancala

REPO = Path(__file__).resolve().parents[2]


def readme_python_block():
    """The example session of the README's Python section (its first ```python block)."""
    text = (REPO / "README.md").read_text()
    section = text[text.index("## Python"):]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "README's Python section has no python block"
    return match.group(1)


@pytest.fixture(scope="session")
def binary():
    path = os.environ.get("MANCALA_BINARY")
    if not path:
        pytest.fail("MANCALA_BINARY must name the built mancala command")
    return path


@pytest.fixture(scope="session")
def run_cli(binary):
    def run(*args):
        result = subprocess.run([binary, *args], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        return result.stdout

    return run


@pytest.fixture(scope="session")
def awari_db(tmp_path_factory):
    """A database directory with Oware (awari) tables up to the seeds on the board of the README
    example's probe, built with mancala.build_tables."""
    position = re.search(r't\.probe\("([0-9NS-]+)"\)', readme_python_block()).group(1)
    seeds = sum(int(n) for n in position.split("-")[:12])
    directory = tmp_path_factory.mktemp("db")
    reports = mancala.build_tables("oware:4:awari", str(directory), seeds)
    assert [r.seeds for r in reports] == list(range(seeds + 1))
    return directory
