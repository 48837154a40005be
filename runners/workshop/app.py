"""The workshop's web application (Starlette): pages, and the JSON they ask for.

Every puzzle is named on a page as a catalog name or as `file:PATH`, a puzzle file under the
server's folder; a path that leads out of the folder (`..`, an absolute path, a link pointing
out) is refused (403) before any file is read. The editor writes only in that folder, only
files whose text the packing reader accepts, atomically; a booklet is written in a new folder of
its `booklets/`. Counts, least cards and booklets run in worker processes (jobs.py); pictures
that list solutions in child processes (drawn.py).
"""

from __future__ import annotations

import contextlib
import html
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import checkpoint as checkpoints
from ..models import files
from ..models.errors import InputError
from . import drawn, editor
from .jobs import Jobs

MODULI = ("none", "symmetry")
PER_PAGE = 6  # solutions drawn a page
CHECKPOINTS = "checkpoints"  # the folder of the server's folder where counts keep their cubes
BOOKLETS = "booklets"  # the folder of the server's folder where booklets are written
CARDS_SHOWN = 12  # least cards drawn on the page (one per class)
MOST_BOOKLET_CARDS = 200  # cards a booklet made from the page holds at most
STATIC = resources.files("puzzlesat.workshop") / "static"


def page(template: str, title: str, **fields: str) -> HTMLResponse:
    """A page of static/TEMPLATE.html, its {{fields}} filled (escaped)."""
    text = (STATIC / f"{template}.html").read_text("utf-8")
    for key, value in {"title": title, **fields}.items():
        text = text.replace("{{" + key + "}}", html.escape(value))
    return HTMLResponse(text)


class Workshop:
    """The state of one server: its folder, its counts, the pictures drawn so far."""

    def __init__(self, folder: str | Path, idle: float) -> None:
        self.folder = Path(folder).resolve()
        if not self.folder.is_dir():
            raise InputError("no such folder", file=str(folder), field="folder")
        self.jobs = Jobs(idle)
        self.thumbnails: dict[tuple[str, int], str] = {}

    # ------------------------------------------------------------ what a page names

    def inside(self, relative: str) -> Path:
        """A path under the folder (403 for one that leads out of it, 404 for none there)."""
        if not relative or "\x00" in relative or Path(relative).is_absolute():
            raise HTTPException(403, "outside the workshop's folder")
        path = (self.folder / relative).resolve()
        if not path.is_relative_to(self.folder):
            raise HTTPException(403, "outside the workshop's folder")
        return path

    def target(self, ref: str) -> str:
        """What api.load takes for a page's puzzle: a catalog name, or the path of a puzzle
        file under the folder."""
        if ref.startswith("file:"):
            path = self.inside(ref[5:])
            if not path.is_file():
                raise HTTPException(404, "no such puzzle file in the workshop's folder")
            return str(path)
        if ref not in files.catalog():
            raise HTTPException(404, f"no puzzle named {ref!r} in the catalog")
        return ref

    def puzzle_files(self) -> list[str]:
        """The puzzle files of the folder (its top level and checkpoints left out)."""
        return sorted(p.name for p in self.folder.glob("*.toml")
                      if p.is_file() and p.resolve().is_relative_to(self.folder))

    def folder_lines(self) -> list[dict]:
        """The folder's puzzle files as the catalog lists its puzzles (a file the readers
        refuse: its error as its summary)."""
        from ..cli.listing import summary_of

        rows = []
        for name in self.puzzle_files():
            try:
                kind, summary = summary_of(self.folder / name)
            except InputError as error:
                kind, summary = "not read", str(error)
            rows.append({"ref": f"file:{name}", "name": name, "kind": kind,
                         "summary": f"in the folder: {summary}"})
        return rows

    def checkpoint(self, target: str, modulo: str) -> str:
        """The checkpoint file of a count: one per puzzle (its content) and modulo."""
        from .. import api

        puzzle = api.load(target)
        folder = self.inside(CHECKPOINTS)  # a link out of the folder is refused
        try:
            folder.mkdir(exist_ok=True)
        except OSError as error:
            raise InputError(f"cannot keep checkpoints there: {error.strerror}",
                             file=str(folder), field="checkpoint") from None
        stem = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in puzzle.name)
        return str(folder / f"{stem}.{modulo}.{checkpoints.digest(puzzle)}.checkpoint")

    def booklet_folder(self, target: str, cards: int, seed: int) -> str:
        """A new empty folder of booklets/ for a booklet (never one written before: a name
        taken gets a number)."""
        folder = self.inside(BOOKLETS)  # a link out of the folder is refused
        named = Path(target).stem if Path(target).is_absolute() else target
        stem = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in named)
        try:
            folder.mkdir(exist_ok=True)
            for n in range(1, 1000):
                made = folder / (f"{stem}-{cards}-cards-seed-{seed}" + (f"-{n}" * (n > 1)))
                with contextlib.suppress(FileExistsError):
                    made.mkdir()
                    return str(made)
        except OSError as error:
            raise InputError(f"cannot write a booklet there: {error.strerror}",
                             file=str(folder), field="booklet") from None
        raise InputError("too many booklets of this puzzle: remove some", file=str(folder),
                         field="booklet")


def error_line(error: InputError) -> JSONResponse:
    return JSONResponse({"error": str(error)}, status_code=400)


async def body(request: Request) -> dict:
    """A request's JSON object. Only a JSON request is taken: another site's page can send a
    plain form or text to this machine without asking, but a JSON request only once this
    server has allowed it (CORS), which it never does."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise HTTPException(415, "a JSON request is expected (Content-Type: application/json)")
    try:
        data = await request.json()
    except ValueError:
        raise HTTPException(400, "not JSON") from None
    if not isinstance(data, dict):
        raise HTTPException(400, "a JSON object is expected")
    return data


class Site:
    """The pages and answers of one workshop (each endpoint a method)."""

    def __init__(self, shop: Workshop) -> None:
        self.shop = shop

    async def catalog_page(self, request: Request) -> Response:
        return page("catalog", "puzzlesat workshop", folder=str(self.shop.folder))

    async def catalog(self, request: Request) -> Response:
        from ..cli.listing import catalog_dir, lines

        rows = [{"ref": name, "name": name, "kind": kind, "summary": summary}
                for name, kind, summary in await run_in_threadpool(lines, catalog_dir())]
        mine = await run_in_threadpool(self.shop.folder_lines)
        return JSONResponse({"puzzles": mine + rows, "folder": str(self.shop.folder)})

    async def words(self, request: Request) -> Response:
        """The play pages' way of saying a number with its noun ('1 cell', '2 cells')."""
        from ..pictures.play import template

        return Response(template("words.js"), media_type="text/javascript")

    async def thumbnail(self, request: Request) -> Response:
        target = self.shop.target(request.query_params.get("puzzle", ""))
        drawn_as = (target, Path(target).stat().st_mtime_ns if Path(target).is_absolute() else 0)
        if drawn_as not in self.shop.thumbnails:  # a file of the folder: drawn again if changed
            try:
                self.shop.thumbnails[drawn_as] = await run_in_threadpool(drawn.thumbnail, target)
            except InputError as error:
                return error_line(error)
        return Response(self.shop.thumbnails[drawn_as], media_type="image/svg+xml")

    async def puzzle_page(self, request: Request) -> Response:
        ref = request.query_params.get("puzzle", "")
        target = self.shop.target(ref)
        try:
            from .. import api, registry

            puzzle = await run_in_threadpool(api.load, target)
            family = registry.family_of(puzzle)
            summary = family.summary(puzzle)
        except InputError as error:
            return page("message", "puzzlesat workshop", message=str(error))
        try:  # whether its solutions fall in classes under the board's symmetries
            family.check_modulo(puzzle, "symmetry")
            classes = ""
        except InputError as error:
            classes = str(error)
        return page("puzzle", puzzle.name, ref=ref, kind=puzzle.kind, summary=summary,
                    name=getattr(puzzle, "title", "") or puzzle.name,
                    calendar=str(_is_calendar(puzzle)).lower(), classes=classes)

    async def in_child(self, function, *args) -> Response:
        try:
            value = await run_in_threadpool(drawn.in_child, function, *args)
        except InputError as error:
            return error_line(error)
        return JSONResponse(value) if isinstance(value, dict) else HTMLResponse(value)

    async def solution(self, request: Request) -> Response:
        return await self.in_child(drawn.first_solution,
                              self.shop.target(request.query_params.get("puzzle", "")))

    async def solutions(self, request: Request) -> Response:
        target = self.shop.target(request.query_params.get("puzzle", ""))
        return await self.in_child(drawn.solutions_page, target, page_number(request), PER_PAGE)

    async def play(self, request: Request) -> Response:
        target = self.shop.target(request.query_params.get("puzzle", ""))
        try:  # a page of its own, in a tab of its own: a refusal is said as a page
            return HTMLResponse(await run_in_threadpool(drawn.in_child, drawn.play, target))
        except InputError as error:
            return page("message", "puzzlesat workshop", message=str(error))

    async def count(self, request: Request) -> Response:
        data = await body(request)
        ref, modulo = str(data.get("puzzle", "")), data.get("modulo", "none")
        if modulo not in MODULI:
            return JSONResponse({"error": f"modulo is one of {', '.join(MODULI)}"}, 400)
        target = self.shop.target(ref)
        try:
            saved = await run_in_threadpool(self.shop.checkpoint, target, modulo)
        except InputError as error:
            return error_line(error)
        job = await run_in_threadpool(self.shop.jobs.start, target, modulo, saved, ref)
        return JSONResponse(job.status())

    async def job_status(self, request: Request) -> Response:
        found = self.shop.jobs.status(request.path_params["job"])
        if found is None:
            raise HTTPException(404, "no such count")
        return JSONResponse(found)

    async def job_stop(self, request: Request) -> Response:
        await body(request)
        found = self.shop.jobs.stop(request.path_params["job"])
        if found is None:
            raise HTTPException(404, "no such count")
        return JSONResponse(found)

    async def classes(self, request: Request) -> Response:
        target = self.shop.target(request.query_params.get("puzzle", ""))
        return await self.in_child(drawn.classes_page, target, page_number(request), PER_PAGE)

    async def cards(self, request: Request) -> Response:
        data = await body(request)
        ref = str(data.get("puzzle", ""))
        job = await run_in_threadpool(self.shop.jobs.run, "cards",
                                      (self.shop.target(ref), CARDS_SHOWN), ref)
        return JSONResponse(job.status())

    async def booklet(self, request: Request) -> Response:
        data = await body(request)
        ref, cards, seed = str(data.get("puzzle", "")), data.get("cards", 12), data.get("seed", 1)
        for value, field in ((cards, "cards"), (seed, "seed")):
            if type(value) is not int or not 1 <= value <= 10**9:
                return JSONResponse({"error": f"{field} is a whole number from 1"}, 400)
        if cards > MOST_BOOKLET_CARDS:
            return JSONResponse({"error": f"a booklet made here holds at most "
                                          f"{MOST_BOOKLET_CARDS} cards"}, 400)
        target = self.shop.target(ref)
        try:
            folder = await run_in_threadpool(self.shop.booklet_folder, target, cards, seed)
        except InputError as error:
            return error_line(error)
        job = await run_in_threadpool(self.shop.jobs.run, "booklet",
                                      (target, cards, seed, folder), ref, made_for=folder)
        return JSONResponse(job.status())

    async def booklet_zip(self, request: Request) -> Response:
        """A booklet made by a job, its folder's files as one zip file."""
        found = self.shop.jobs.status(request.path_params["job"])
        if found is None or found["work"] != "booklet" or found["state"] != "done":
            raise HTTPException(404, "no such booklet made")
        folder = self.shop.inside(str(Path(found["answer"]["folder"])
                                      .relative_to(self.shop.folder)))
        data = await run_in_threadpool(zipped, folder)
        name = folder.name + ".zip"
        return Response(data, media_type="application/zip",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def calendar(self, request: Request) -> Response:
        target = self.shop.target(request.query_params.get("puzzle", ""))
        return await self.in_child(drawn.calendar_date, target,
                                   request.query_params.get("date", "today"))

    async def editor_page(self, request: Request) -> Response:
        return page("editor", "puzzlesat workshop: editor", folder=str(self.shop.folder))

    async def editor_grid(self, request: Request) -> Response:
        query = request.query_params
        try:
            rows, cols = int(query.get("rows", "6")), int(query.get("cols", "8"))
            layers = int(query.get("layers", "1"))
            return JSONResponse(editor.grid(query.get("lattice", "square"), rows, cols,
                                            layers=layers))
        except ValueError:
            raise HTTPException(400, "rows, cols and layers are whole numbers") from None
        except InputError as error:
            return error_line(error)

    async def editor_save(self, request: Request) -> Response:
        from ..output import write_text_atomic

        data = await body(request)
        try:
            name = editor.file_name(data.get("file"))
            path = self.shop.inside(name)
            text = await design_text(data, name)  # refused: nothing written
            if path.exists() and not data.get("replace"):
                raise InputError("exists in the folder: tick 'replace' to write over it",
                                 file=name)
            write_text_atomic(str(path), text, "file")
        except InputError as error:
            return error_line(error)
        return JSONResponse({"file": name, "ref": f"file:{name}", "text": text,
                             "path": str(path)})

    async def editor_read(self, request: Request) -> Response:
        data = await body(request)
        if "file" in data:  # a file of the folder
            path = self.shop.inside(str(data["file"]))
            if not path.is_file():
                raise HTTPException(404, "no such file in the workshop's folder")
            name, text = path.name, path.read_text("utf-8", errors="replace")
        else:  # a file the page read (uploaded)
            name, text = str(data.get("name") or "the file"), str(data.get("text", ""))
        try:
            return JSONResponse(await run_in_threadpool(editor.read_design, name, text))
        except InputError as error:
            return error_line(error)

    async def editor_move(self, request: Request) -> Response:
        data = await body(request)
        try:
            cells = editor.moved(data.get("lattice"), data.get("cells"), data.get("how"))
        except InputError as error:
            return error_line(error)
        return JSONResponse({"cells": cells})

    async def editor_solve(self, request: Request) -> Response:
        return await self.of_design(request, drawn.solve_text)

    async def editor_unique(self, request: Request) -> Response:
        return await self.of_design(request, drawn.uniqueness_text)

    async def of_design(self, request: Request, function) -> Response:
        """`function(text)` in a child process, of the request's design as a file's text."""
        data = await body(request)
        try:
            text = await design_text(data, "the design")
        except InputError as error:
            return error_line(error)
        return await self.in_child(function, text)

    async def folder_file(self, request: Request) -> Response:
        path = self.shop.inside(request.path_params["path"])
        if not path.is_file():
            raise HTTPException(404, "no such file in the workshop's folder")
        return Response(path.read_bytes(), media_type="text/plain; charset=utf-8")


def page_number(request: Request) -> int:
    """The page asked for (from 1)."""
    try:
        return max(1, int(request.query_params.get("page", "1")))
    except ValueError:
        raise HTTPException(400, "page is a whole number") from None


def zipped(folder: Path) -> bytes:
    """A folder's files (links left out: nothing from outside it) as a zip file's bytes."""
    import io
    import zipfile

    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as made:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not path.is_symlink():
                made.write(path, f"{folder.name}/{path.relative_to(folder)}")
    return data.getvalue()


def _is_calendar(puzzle) -> bool:
    """Whether a puzzle is a calendar (its page picks a date)."""
    from ..models.packing.calendar import is_calendar

    return puzzle.kind == "packing" and bool(puzzle.labels) and is_calendar(puzzle)


async def design_text(data: dict, name: str) -> str:
    """The page's design as a puzzle file's text, read back by the packing reader (its
    InputError, naming `name`, where the reader refuses it)."""
    text = editor.toml_text(editor.design(data.get("design")))
    await run_in_threadpool(editor.checked, name, text)
    return text


def routes(shop: Workshop) -> list:
    """The application's routes over one workshop."""
    site = Site(shop)
    return [
        Route("/", site.catalog_page), Route("/api/catalog", site.catalog),
        Route("/thumbnail.svg", site.thumbnail), Route("/words.js", site.words),
        Route("/puzzle", site.puzzle_page),
        Route("/api/solution", site.solution), Route("/api/solutions", site.solutions),
        Route("/api/classes", site.classes),
        Route("/api/cards", site.cards, methods=["POST"]),
        Route("/api/booklet", site.booklet, methods=["POST"]),
        Route("/api/jobs/{job}/booklet.zip", site.booklet_zip),
        Route("/play", site.play), Route("/api/calendar", site.calendar),
        Route("/api/count", site.count, methods=["POST"]),
        Route("/api/jobs/{job}", site.job_status),
        Route("/api/jobs/{job}/stop", site.job_stop, methods=["POST"]),
        Route("/editor", site.editor_page), Route("/api/editor/grid", site.editor_grid),
        Route("/api/editor/save", site.editor_save, methods=["POST"]),
        Route("/api/editor/read", site.editor_read, methods=["POST"]),
        Route("/api/editor/move", site.editor_move, methods=["POST"]),
        Route("/api/editor/solve", site.editor_solve, methods=["POST"]),
        Route("/api/editor/unique", site.editor_unique, methods=["POST"]),
        Route("/folder/{path:path}", site.folder_file),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]


LOCAL_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


def application(folder: str | Path, idle: float, host: str = "127.0.0.1"
                ) -> tuple[Starlette, Workshop]:
    """The application over a folder, and its workshop (whose jobs the caller closes). Bound
    to this machine, it answers only requests addressed to it by a local name (a page of
    another site that points a name of its own at 127.0.0.1 is refused)."""
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware

    shop = Workshop(folder, idle)

    async def refused(request: Request, error: HTTPException) -> Response:
        return JSONResponse({"error": error.detail}, status_code=error.status_code)

    local = host in LOCAL_NAMES
    hosts = [*LOCAL_NAMES] if local else ["*"]
    app = Starlette(routes=routes(shop), exception_handlers={HTTPException: refused},
                    middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)])
    return app, shop

