"""Progress that says what is happening: one line on a terminal, none on a
pipe or a log unless asked, compiles included, every bar ending clean."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time

import pytest

from anaconda_sim import progress
from anaconda_sim.progress import progress_bar, shows, watch_compiles

CURSOR_CODES = re.compile(r"\x1b\[")


class Terminal(io.StringIO):
    """A standard error that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def screen(text: str) -> list[str]:
    """What a terminal shows after ``text``: carriage returns overwrite the
    line, newlines start a new one (a bar must not move the cursor up)."""
    assert not CURSOR_CODES.search(text), f"cursor codes in {text!r}"
    lines = [""]
    for part in re.split(r"(\r|\n)", text):
        if part == "\n":
            lines.append("")
        elif part == "\r":
            lines[-1] = "\r" + lines[-1]  # the cursor is back at column 0
        elif part:
            line = lines[-1]
            if line.startswith("\r"):  # write over the start of the line
                old = line[1:]
                line = part + old[len(part) :]
            else:
                line += part
            lines[-1] = line
    return [line.lstrip("\r") for line in lines]


@pytest.fixture
def terminal(monkeypatch):
    """Standard error as a terminal (set in the test's body: pytest's capture
    puts its own stream back at the start of each phase)."""

    def use() -> Terminal:
        stream = Terminal()
        monkeypatch.setattr(sys, "stderr", stream)
        monkeypatch.delenv(progress.PROGRESS_VARIABLE, raising=False)
        return stream

    return use


def test_automatic_bars_show_on_a_terminal_only(terminal, monkeypatch):
    terminal = terminal()
    assert shows(None) and shows(True) and not shows(False)
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # a pipe or a log
    assert not shows(None) and shows(True)
    with progress_bar(10, "deals", delay=0.0) as bar:
        bar.update(10)
    assert sys.stderr.getvalue() == ""


@pytest.mark.parametrize(("setting", "expected"), [("1", True), ("always", True), ("0", False),
                                                   ("off", False), ("", None)])  # fmt: skip
def test_the_environment_asks_for_bars_or_none(terminal, monkeypatch, setting, expected):
    terminal = terminal()
    monkeypatch.setenv(progress.PROGRESS_VARIABLE, setting)
    assert shows(None) is (True if expected is None else expected)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert shows(None) is (False if expected is None else expected)


def test_a_short_run_prints_nothing(terminal):
    terminal = terminal()
    with progress_bar(10, "deals") as bar:  # automatic: waits AUTO_DELAY seconds
        bar.update(10)
    assert terminal.getvalue() == ""


def test_a_bar_inside_a_bar_speaks_on_one_line_and_ends_clean(terminal):
    terminal = terminal()
    with progress_bar(100, "reveal orders", enabled=True) as outer:
        outer.update(10)
        with progress_bar(4, "compiling the reveal kernels", enabled=True, unit="kernel") as inner:
            inner.update(2)
            shown = [line for line in screen(terminal.getvalue()) if line.strip()]
            assert shown and "reveal orders · compiling the reveal kernels 2/4" in shown[-1]
        outer.update(90)
        assert "compiling" not in screen(terminal.getvalue())[-1]
    # one line throughout, cleared at the end
    final = screen(terminal.getvalue())
    assert len(final) == 1 and final[0].strip() == ""


def test_the_line_shows_and_its_clock_runs_while_nothing_reports(terminal, monkeypatch):
    terminal = terminal()
    monkeypatch.setattr(progress, "TICK", 0.05)
    with progress_bar(None, "a long silent step", delay=0.1, unit="kernel"):
        time.sleep(0.6)
        assert "a long silent step" in screen(terminal.getvalue())[-1]
    assert screen(terminal.getvalue())[-1].strip() == ""


def test_a_bar_closed_by_an_error_ends_clean(terminal):
    terminal = terminal()
    with pytest.raises(KeyboardInterrupt):
        with progress_bar(10, "deals", enabled=True) as bar:
            bar.update(3)
            raise KeyboardInterrupt
    assert screen(terminal.getvalue())[-1].strip() == ""
    assert progress._LINES == []


def test_first_call_compiles_show_on_the_line(terminal, monkeypatch):
    terminal = terminal()
    import anaconda_sim._numba  # noqa: F401  (installs the watcher)
    from anaconda_sim._numba import jit

    monkeypatch.setattr(progress, "AUTO_DELAY", 0.0)
    monkeypatch.setattr(progress, "COMPILE_GRACE", 0.05)
    watch_compiles()  # installed once: a second call does nothing

    @jit(cache=False)
    def fresh(x):
        return x + 1

    assert fresh(1) == 2
    assert "compiling kernels (first call; cached for later calls)" in terminal.getvalue()
    # cleared as soon as nothing compiles: what the program prints next meets a clean line
    assert progress._LINES == []
    assert screen(terminal.getvalue())[-1].strip() == ""
    # inside a bar, the compile is a part of that bar's line
    terminal.seek(0)
    terminal.truncate()

    @jit(cache=False)
    def other(x):
        return x * 3

    with progress_bar(5, "passes", enabled=True) as bar:
        assert other(2) == 6
        assert "passes · compiling kernels" in terminal.getvalue()
        bar.update(5)
    assert len(screen(terminal.getvalue())) == 1


REVEAL = ["reveal", "Qs Qh Qd 9c 9d", "--seed", "1", "--players", "4"]
EQUITY = ["equity", "Qs Qh Qd 9c 9d", "--seed", "1", "--players", "4"]


def _environment(cache=None) -> dict[str, str]:
    """The shell's environment without the progress switch; with ``cache``,
    a kernel cache of its own (else the suite's)."""
    env = {k: v for k, v in os.environ.items() if k != progress.PROGRESS_VARIABLE}
    return env if cache is None else {**env, "ANACONDA_SIM_CACHE_DIR": str(cache)}


def _on_a_terminal(args: list[str], env: dict[str, str]) -> str:
    """What a command writes to standard error when it is a pseudo-terminal."""
    import fcntl
    import pty
    import struct
    import termios

    leader, follower = pty.openpty()
    # a terminal of 24 rows and 120 columns (a fresh pseudo-terminal has none)
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "anaconda_sim", *args],
                               stdout=subprocess.DEVNULL, stderr=follower, env=env)  # fmt: skip
    os.close(follower)
    chunks: list[bytes] = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        chunks.append(chunk)
    assert process.wait(timeout=600) == 0
    os.close(leader)
    return b"".join(chunks).decode("utf-8", errors="replace").replace("\r\n", "\n")


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_the_shell_shows_one_clean_line_on_a_terminal_and_nothing_in_a_log(tmp_path):
    # an empty kernel cache: the first call compiles for seconds and says so
    # (equity's kernels: a third of the reveal kernels' compile, the same line)
    text = _on_a_terminal([*EQUITY, "-n", "2000"], _environment(tmp_path / "cache"))
    assert "compiling" in text
    assert screen(text) == [screen(text)[-1]] and screen(text)[-1].strip() == ""
    # a log: a run of several seconds writes no bar and no cursor code (the
    # suite's cache: the reveal kernels are the other tests' too)
    log = tmp_path / "log"
    with open(log, "wb") as handle:
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "anaconda_sim", *REVEAL, "-n", "60000"],
                              stdout=subprocess.DEVNULL, stderr=handle, env=_environment(),
                              timeout=600)  # fmt: skip
    assert done.returncode == 0 and time.perf_counter() - started > progress.AUTO_DELAY
    assert log.read_text(encoding="utf-8") == ""
