"""Fixtures of the Python module's tests: the built `mancala` binary (for comparing with the
command line) and small endgame tables built through the module."""
import os
import re
import subprocess
from pathlib import Path

import pytest

import mancala

REPO = Path(__file__).resolve().parents[2]


def python_doc_block():
    """The example session of the Python module's reference, docs/python.md (its first ```python
    block)."""
    text = (REPO / "docs" / "python.md").read_text()
    match = re.search(r"```python\n(.*?)```", text, re.S)
    assert match, "docs/python.md has no python block"
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
    """A database directory with Oware (awari) tables up to the seeds on the board of the probe in
    docs/python.md's example session, built with mancala.build_tables."""
    position = re.search(r't\.probe\("([0-9NS-]+)"\)', python_doc_block()).group(1)
    seeds = sum(int(n) for n in position.split("-")[:12])
    directory = tmp_path_factory.mktemp("db")
    reports = mancala.build_tables("oware:4:awari", str(directory), seeds)
    assert [r.seeds for r in reports] == list(range(seeds + 1))
    return directory
