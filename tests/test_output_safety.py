"""Output can never destroy what it should not touch (runners/output.py, the one writer).

`export -o /dev/full` once replaced the device with an 11 MB regular file: the atomic write
renamed over whatever the path was. Only a regular file or a new path is ever replaced now.
No test here writes to the real /dev/null or /dev/full: they use device nodes, pipes and
symbolic links made in a temporary folder.
"""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest
from _readonly import run_read_only

from puzzlesat import output
from puzzlesat.models.errors import InputError

ROOT = os.geteuid() == 0


def test_a_new_file_and_a_regular_file_are_written_atomically(tmp_path):
    path = tmp_path / "deep" / "er" / "out.txt"
    assert output.write_text_atomic(path, "one\n") == ""
    assert output.write_text_atomic(path, "two\n") == ""
    assert path.read_text() == "two\n"
    assert [p.name for p in path.parent.iterdir()] == ["out.txt"]  # no temporary left


def test_a_replaced_file_keeps_its_permissions(tmp_path):
    path = tmp_path / "script.sh"
    path.write_text("old")
    path.chmod(0o750)
    output.write_text_atomic(path, "new")
    assert stat.S_IMODE(path.stat().st_mode) == 0o750 and path.read_text() == "new"


def test_a_loop_of_links_is_a_one_line_error(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(InputError, match="symbolic links"):
        output.write_text_atomic(tmp_path / "a", "text")


def test_a_directory_is_a_one_line_error(tmp_path):
    with pytest.raises(InputError) as caught:
        output.write_text_atomic(tmp_path, "text", "output")
    assert str(caught.value) == (
        f"{tmp_path}: output: is a directory, not a file: give a file name "
        "('-' for standard output)"
    )
    with pytest.raises(InputError):
        output.check_output(tmp_path)
    assert tmp_path.is_dir()


def test_a_symbolic_link_is_followed_and_kept(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    note = output.write_text_atomic(link, "new")
    assert note == f"followed the symbolic link {link} to {real}"
    assert link.is_symlink() and real.read_text() == "new"


def test_a_symbolic_link_to_a_directory_is_refused(tmp_path):
    link = tmp_path / "link"
    link.symlink_to(tmp_path)
    with pytest.raises(InputError, match="is a directory"):
        output.write_text_atomic(link, "text")
    assert link.is_symlink()


def test_a_link_to_a_character_device_writes_in_place(tmp_path):
    link = tmp_path / "null"
    link.symlink_to(os.devnull)  # what `-o /dev/null` does, through a temporary link
    note = output.write_text_atomic(link, "discarded")
    assert "wrote in place to the character device" in note
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode) and link.is_symlink()


@pytest.mark.skipif(not ROOT, reason="making a device node needs root")
def test_a_full_device_is_an_error_and_stays_a_device(tmp_path):
    full = tmp_path / "full"
    os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # the kernel's "full" device
    with pytest.raises(InputError) as caught:
        output.write_text_atomic(full, "x" * 100_000, "output")
    assert "No space left on device" in str(caught.value) and str(full) in str(caught.value)
    assert stat.S_ISCHR(full.stat().st_mode)
    assert output.check_output(full).kind == "character device"


def test_a_pipe_is_written_in_place(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received: list[str] = []
    ready = threading.Event()

    def reader() -> None:
        ready.set()
        with open(fifo, encoding="utf-8") as pipe:
            received.append(pipe.read())

    thread = threading.Thread(target=reader)
    thread.start()
    ready.wait()
    for _ in range(200):  # wait until the reader has the pipe open
        try:
            note = output.write_text_atomic(fifo, "through the pipe")
            break
        except InputError:
            threading.Event().wait(0.01)
    thread.join(5)
    assert received == ["through the pipe"] and "pipe" in note
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_pipe_with_no_reader_is_an_error_not_a_hang(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="a pipe with no reader"):
        output.write_text_atomic(fifo, "nobody reads")
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_socket_is_refused(tmp_path):
    import socket

    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        with pytest.raises(InputError, match="is a socket"):
            output.write_text_atomic(path, "text")
        assert stat.S_ISSOCK(path.stat().st_mode)


def test_dash_is_standard_output(capsys):
    output.write_export("-", "exported text\n", "a summary")
    captured = capsys.readouterr()
    assert captured.out == "exported text\n" and captured.err == ""
    assert output.check_output("-").kind == "standard output"


def test_an_export_says_what_it_followed(tmp_path, capsys):
    real = tmp_path / "real.txt"
    (tmp_path / "link.txt").symlink_to(real)
    output.write_export(str(tmp_path / "link.txt"), "text", "3 lines")
    err = capsys.readouterr().err
    assert "3 lines" in err and "followed the symbolic link" in err


# ---------------------------------------------------------------- checked before the work


def test_results_naming_a_file_is_refused_before_the_work(tmp_path):
    file = tmp_path / "results"
    file.write_text("a file")
    with pytest.raises(InputError) as caught:
        output.check_folder(file)
    assert str(caught.value) == f"{file}: results: names a file, not a folder"
    with pytest.raises(InputError, match="is a file, so no folder can be made there"):
        output.check_folder(file / "sub")
    with pytest.raises(InputError, match="out.json: output: its folder .* does not exist"):
        output.check_output(file / "out.json")
    assert file.read_text() == "a file"


def test_a_missing_results_folder_can_be_made(tmp_path):
    assert output.check_folder(tmp_path / "new" / "results") == tmp_path / "new" / "results"
    assert not (tmp_path / "new").exists()  # checking makes nothing


def test_an_output_in_a_missing_folder_is_refused(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        output.check_output(tmp_path / "typo" / "out.cnf")
    assert not (tmp_path / "typo").exists()


@pytest.mark.skipif(ROOT, reason="root writes to read-only folders anyway (see the bind test)")
def test_a_read_only_folder_is_refused_before_the_work(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(InputError, match="Permission denied"):
            output.check_folder(folder)
        with pytest.raises(InputError, match="Permission denied"):
            output.write_text_atomic(folder / "x.txt", "text")
    finally:
        folder.chmod(0o700)


@pytest.mark.skipif(ROOT, reason="root writes to read-only files anyway")
def test_a_read_only_file_is_refused_before_the_work(tmp_path):
    path = tmp_path / "ro.txt"
    path.write_text("keep")
    path.chmod(0o400)
    with pytest.raises(InputError, match="read-only"):
        output.check_output(path)


READ_ONLY_CHECK = """
import sys
from puzzlesat import output
from puzzlesat.models.errors import InputError
folder = sys.argv[1]
for check in (lambda: output.check_folder(folder),
              lambda: output.check_output(folder + "/out.json"),
              lambda: output.write_text_atomic(folder + "/out.json", "text")):
    try:
        check()
        print("no error")
    except InputError as error:
        print(error)
"""


def test_a_read_only_file_system_is_refused_before_the_work(tmp_path):
    source, run = run_read_only(tmp_path, READ_ONLY_CHECK)
    lines = run.stdout.splitlines()
    assert len(lines) == 3 and all("Read-only file system" in line for line in lines), run
    assert "Traceback" not in run.stderr
    assert list(source.iterdir()) == []


def test_verified_results_that_cannot_be_written_are_printed(tmp_path, capsys):
    file = tmp_path / "results"
    file.write_text("a file")
    with pytest.raises(InputError) as caught:
        output.write_verified(file, "puzzle", {"puzzle": "p", "count": 48})
    assert "printed to standard output instead" in str(caught.value)
    printed = json.loads(capsys.readouterr().out)
    assert printed["count"] == 48 and "versions" in printed


def test_verified_results_are_written_with_their_index(tmp_path):
    result = {"puzzle": "p", "count": 48, "classes": 6, "runs": []}
    path = output.write_verified(tmp_path, "p", result)
    assert json.loads(path.read_text())["count"] == 48
    assert "| [p.json](p.json) | verified count (`verify`) | count 48; classes 6 |" in Path(
        tmp_path / "index.md").read_text()
    assert not (tmp_path / "README.md").exists()  # the narrative is never written by a command


def test_the_committed_index_lists_every_results_file():
    """results/index.md is what `puzzlesat results` makes of the folder as committed: a file
    added without its line in the index fails here."""
    results = Path(__file__).resolve().parents[1] / "results"
    assert (results / "index.md").read_text(encoding="utf-8") == output.results_index(results)


def test_a_sample_never_replaces_a_fuller_record(tmp_path, capsys):
    """Regression: `verify mind-lock --sample 4 --seed 1` replaced the committed record of a
    sample of 12 (769 lines fewer)."""
    output.write_verified(tmp_path, "m", {"puzzle": "m", "count": 5, "sample": {"size": 12},
                                          "plans": [1] * 28})
    with pytest.raises(InputError, match="fuller record .*a sample of 12.* a sample of 4"):
        output.write_verified(tmp_path, "m", {"puzzle": "m", "count": 5,
                                              "sample": {"size": 4}, "plans": [1] * 8})
    assert json.loads((tmp_path / "m.json").read_text())["sample"]["size"] == 12
    assert json.loads(capsys.readouterr().out)["sample"]["size"] == 4  # printed, not lost
    output.write_verified(tmp_path, "m", {"puzzle": "m", "count": 5, "sample": {"size": 20},
                                          "plans": [1] * 40})
    assert json.loads((tmp_path / "m.json").read_text())["sample"]["size"] == 20


# ---------------------------------------------------------------- no user file replaced unasked

# Every command that writes -o/--output (or best's --draw and --play), with arguments that
# would run it: a file or a folder of the user's there already is refused before any work,
# unless --force. test_every_output_command_is_swept fails on a command missing here.
OUTPUT_COMMANDS = {
    "draw": (["draw", "iq-block-8", "-o"], "x.svg"),
    "gallery": (["gallery", "iq-block-8", "-o"], "dir"),
    "play": (["play", "iq-block-8", "-o"], "x.html"),
    "export": (["export", "iq-block-8", "-o"], "x.cnf"),
    "cards": (["cards", "iq-block-8", "-o"], "x.toml"),
    "booklet": (["booklet", "iq-block-8", "-n", "1", "-o"], "dir"),
    "generate": (["generate", "4", "-o"], "x.txt"),
    "sliding starts": (["sliding", "starts", "klotski", "--moves", "2", "-o"], "dir"),
    "best": (["best", "diamond-blocks", "--time-limit", "1", "--draw"], "x.svg"),
}
OUTPUT_FLAGS = ("-o", "--output", "--draw", "--play")


def output_commands() -> set[str]:
    """The commands (and sub-commands) of the command line that take an output flag."""
    import argparse

    from puzzlesat.cli import build_parser

    found: set[str] = set()

    def walk(parser: argparse.ArgumentParser, prefix: str) -> None:
        for action in parser._actions:  # noqa: SLF001 (argparse has no public walk)
            if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
                for name, sub in action.choices.items():
                    walk(sub, f"{prefix} {name}".strip())
            elif set(action.option_strings) & set(OUTPUT_FLAGS):
                found.add(prefix)

    walk(build_parser(), "")
    return found


def test_every_output_command_is_swept():
    assert output_commands() == set(OUTPUT_COMMANDS)


@pytest.mark.parametrize("command", sorted(OUTPUT_COMMANDS))
def test_an_existing_file_is_never_replaced_without_force(command, tmp_path, capsys,
                                                          monkeypatch):
    """Regression: `booklet -o DIR` replaced a booklet.toml the user had in DIR; `export`,
    `draw`, `play`, `cards -o` replaced a file of the same name."""
    from puzzlesat.cli import main

    monkeypatch.chdir(tmp_path)
    argv, name = OUTPUT_COMMANDS[command]
    mine = tmp_path / name
    if name == "dir":
        mine.mkdir()
        kept = mine / "booklet.toml"
    else:
        kept = mine
    kept.write_text("the user's own\n")
    assert main([*argv, str(mine)]) == 2
    err = capsys.readouterr().err
    assert "only when asked to force it" in err and err.count("\n") == 1, err
    assert kept.read_text() == "the user's own\n" and sorted(tmp_path.iterdir()) == [mine]


def test_force_replaces_an_existing_file(tmp_path, capsys):
    from puzzlesat.cli import main

    mine = tmp_path / "x.svg"
    mine.write_text("the user's own\n")
    assert main(["draw", "iq-block-8", "-o", str(mine), "--force"]) == 0
    assert "<svg" in mine.read_text()
    folder = tmp_path / "gallery"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    assert main(["gallery", "iq-block-8", "--cap", "2", "-o", str(folder), "--force"]) == 0
    assert (folder / "index.html").exists() and (folder / "notes.txt").read_text() == "mine"


def test_an_empty_folder_and_devices_need_no_force(tmp_path, capsys):
    from puzzlesat.cli import main

    (tmp_path / "empty").mkdir()
    assert main(["gallery", "scramble-frog", "--cap", "1", "-o", str(tmp_path / "empty")]) == 0
    link = tmp_path / "null.svg"
    link.symlink_to(os.devnull)  # what `-o /dev/null` does, through a link with a picture's name
    assert main(["draw", "iq-block-8", "-o", str(link)]) == 0
