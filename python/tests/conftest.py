"""Shared helpers: the host binary the equality tests run."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def host_binary():
    """The `tetrad` binary: $TETRAD_BIN, else the workspace's debug build, else its
    release build."""
    if os.environ.get("TETRAD_BIN"):
        return pathlib.Path(os.environ["TETRAD_BIN"])
    for profile in ("debug", "release"):
        path = ROOT / "target" / profile / "tetrad"
        if path.exists():
            return path
    return None


@pytest.fixture(scope="session")
def tetrad_run():
    """Runs `tetrad run ARGS --format json` and returns its games, by index."""
    binary = host_binary()
    if binary is None:
        pytest.skip("no tetrad binary: run `cargo build` first, or set TETRAD_BIN")

    def run(*args):
        out = subprocess.run(
            [str(binary), "run", *map(str, args), "--format", "json", "--jobs", "1"],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        games = json.loads(out.stdout)["games"]
        return {g["index"]: g for g in games}

    return run
