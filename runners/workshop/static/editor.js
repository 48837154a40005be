"use strict";
// The editor: a board and pieces as sets of cells clicked on a lattice; the areas compared as
// one clicks; saved as the TOML file the command line reads (the server checks it with the
// packing reader first: a design it refuses is said here in one line, nothing written).
const $ = (id) => document.getElementById(id);
const key = (cell) => cell.join(",");
const unkey = (k) => k.split(",").map(Number);
const design = {board: new Set(), pieces: []};
let current = -1;  // -1: the board, else a piece's index

function layer() { return current < 0 ? design.board : design.pieces[current].cells; }

function nextName() {
  const used = new Set(design.pieces.map((p) => p.name));
  for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") if (!used.has(ch)) return ch;
  return "P" + (design.pieces.length + 1);
}

function payload() {
  return {lattice: $("lattice").value, flip: $("flip").checked, title: $("title").value,
    board: [...design.board].map(unkey),
    pieces: design.pieces.map((p) => ({name: p.name, copies: p.copies, placed: p.placed,
      cells: [...p.cells].map(unkey)}))};
}

function error(text) { $("error").textContent = text || ""; }

function areas() {
  const board = design.board.size;
  const pieces = design.pieces.reduce((n, p) => n + p.cells.size * p.copies, 0);
  const el = $("areas");
  const same = board === pieces && board > 0;
  el.className = same ? "ok" : "bad";
  el.textContent = "board: " + plural(board, "cell") + "; pieces: " + plural(pieces, "cell")
    + (same ? ": the areas match" : board > pieces ? ": " + plural(board - pieces, "cell")
      + " too few" : ": " + plural(pieces - board, "cell") + " too many");
  el.dataset.board = board;
  el.dataset.pieces = pieces;
}

function drawLayers() {
  const box = $("layers");
  box.innerHTML = "";
  const add = (label, index) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.dataset.layer = index;
    if (index === current) b.className = "current";
    b.addEventListener("click", () => { current = index; refresh(); });
    box.appendChild(b);
  };
  add("Board (" + plural(design.board.size, "cell") + ")", -1);
  design.pieces.forEach((p, i) => add("Piece " + p.name + " (" + plural(p.cells.size, "cell")
    + (p.copies > 1 ? ", " + plural(p.copies, "copy") : "") + (p.placed ? ", placed" : "") + ")", i));
  $("piece-fields").hidden = current < 0;
  $("remove-piece").disabled = current < 0;
  if (current >= 0) {
    $("piece-name").value = design.pieces[current].name;
    $("piece-copies").value = design.pieces[current].copies;
    $("piece-placed").checked = design.pieces[current].placed;
  }
}

function paint() {
  const on = layer();
  for (const poly of $("canvas").querySelectorAll("polygon")) {
    const k = poly.dataset.cell;
    poly.classList.toggle("on", on.has(k));
    poly.classList.toggle("board-ghost", current >= 0 && !on.has(k) && design.board.has(k));
  }
}

function refresh() { drawLayers(); paint(); areas(); }

const inSpace = () => ["cubic", "balls"].includes($("lattice").value);
let gridsAsked = 0;  // the grids asked for: an answer to an older question is dropped

// The grid asked for, drawn once: asked again (a field's change event fires again when the
// field loses focus, as a cell is clicked) it is only repainted, since cells redrawn between
// a click's press and release would lose the click. canvas[data-drawing] says whether a grid
// is still on its way.
function grid(rows, cols) {
  const lattice = $("lattice").value;
  const layers = Number($("layers-count").value);
  const mine = ++gridsAsked;
  const svg = $("canvas");
  const asked = [lattice, rows, cols, layers].join();
  $("layers-field").hidden = !inSpace();
  $("flip-field").hidden = inSpace();  // in space a piece turns by its rotations
  if (svg.dataset.grid === asked) {
    svg.dataset.drawing = "no";
    refresh();
    return Promise.resolve();
  }
  svg.dataset.drawing = "yes";
  return fetch("/api/editor/grid?lattice=" + lattice + "&rows=" + rows + "&cols=" + cols
    + "&layers=" + layers)
    .then((r) => r.json()).then((g) => {
      if (mine !== gridsAsked) return;
      svg.setAttribute("width", g.width);
      svg.setAttribute("height", g.height);
      svg.innerHTML = "";
      for (const c of g.captions) {
        const text = document.createElementNS("http://www.w3.org/2000/svg", "text");
        text.setAttribute("x", c.x);
        text.setAttribute("y", c.y);
        text.setAttribute("font-size", "12");
        text.textContent = c.text;
        svg.appendChild(text);
      }
      for (const c of g.cells) {
        const poly = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
        poly.setAttribute("points", c.points.map((p) => p.join(",")).join(" "));
        poly.dataset.cell = key(c.cell);
        poly.addEventListener("click", () => {
          const cells = layer();
          if (cells.has(poly.dataset.cell)) cells.delete(poly.dataset.cell);
          else cells.add(poly.dataset.cell);
          refresh();
        });
        svg.appendChild(poly);
      }
      svg.dataset.lattice = lattice;
      svg.dataset.grid = asked;
      svg.dataset.drawing = "no";
      refresh();
    });
}

function regrid() { return grid(Number($("rows").value), Number($("cols").value)); }

// the grid that holds cells, one row and column to spare (in space: as many layers as used)
function fit(cells, spare) {
  const at = cells[0].length - 2;  // where the row is in a cell
  $("rows").value = Math.max(Number($("rows").value) * (1 - spare), Math.max(...cells.map((c) => c[at])) + 1 + spare);
  $("cols").value = Math.max(Number($("cols").value) * (1 - spare), Math.max(...cells.map((c) => c[at + 1])) + 1 + spare);
  if (at === 1) $("layers-count").value = Math.max(Number($("layers-count").value) * (1 - spare), Math.max(...cells.map((c) => c[0])) + 1);
}

function load(d) {
  $("lattice").value = d.lattice;
  $("flip").checked = d.flip;
  $("title").value = d.title || "";
  design.board = new Set(d.board.map(key));
  design.pieces = d.pieces.map((p) => ({name: p.name, copies: p.copies, placed: p.placed,
    cells: new Set(p.cells.map(key))}));
  current = -1;
  fit(d.board.concat(...d.pieces.map((p) => p.cells)), 1);
  error("");
  return regrid();
}

function read(body) {
  return fetch("/api/editor/read", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body)}).then((r) => r.json()).then((d) => {
    if (d.error) { error(d.error); document.body.dataset.loaded = "error"; return; }
    load(d).then(() => { document.body.dataset.loaded = "ok"; });
  });
}

function folderFiles() {
  fetch("/api/catalog").then((r) => r.json()).then((c) => {
    const select = $("folder-files");
    select.innerHTML = "";
    for (const p of c.puzzles.filter((p) => p.ref.startsWith("file:"))) {
      const o = document.createElement("option");
      o.value = o.textContent = p.ref.slice(5);
      select.appendChild(o);
    }
  });
}

$("lattice").addEventListener("change", () => {
  design.board.clear();
  design.pieces.forEach((p) => p.cells.clear());
  regrid();
});
$("rows").addEventListener("change", regrid);
$("layers-count").addEventListener("change", regrid);
$("cols").addEventListener("change", regrid);
$("add-piece").addEventListener("click", () => {
  design.pieces.push({name: nextName(), copies: 1, placed: false, cells: new Set()});
  current = design.pieces.length - 1;
  refresh();
});
$("remove-piece").addEventListener("click", () => {
  if (current < 0) return;
  design.pieces.splice(current, 1);
  current = -1;
  refresh();
});
$("clear").addEventListener("click", () => { layer().clear(); refresh(); });
$("piece-name").addEventListener("change", () => {
  if (current >= 0) { design.pieces[current].name = $("piece-name").value.trim(); refresh(); }
});
$("piece-placed").addEventListener("change", () => {
  if (current >= 0) { design.pieces[current].placed = $("piece-placed").checked; refresh(); }
});
$("piece-copies").addEventListener("change", () => {
  if (current >= 0) { design.pieces[current].copies = Math.max(1, Number($("piece-copies").value) || 1); refresh(); }
});
$("save").addEventListener("click", () => {
  $("saved").innerHTML = "";
  fetch("/api/editor/save", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({file: $("file").value.trim(), replace: $("replace").checked, design: payload()})})
    .then((r) => r.json()).then((s) => {
      if (s.error) { error(s.error); document.body.dataset.saved = "error"; return; }
      error("");
      $("toml").textContent = s.text;
      const link = document.createElement("a");
      link.href = "/puzzle?puzzle=" + encodeURIComponent(s.ref);
      link.id = "count-it";
      link.textContent = "saved " + s.file + ": open it to count it";
      $("saved").appendChild(link);
      document.body.dataset.saved = s.file;
      folderFiles();
    });
});
$("upload").addEventListener("change", () => {
  const file = $("upload").files[0];
  if (!file) return;
  file.text().then((text) => read({name: file.name, text: text}));
});
$("open").addEventListener("click", () => { if ($("folder-files").value) read({file: $("folder-files").value}); });

function post(path, body) {
  return fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body)}).then((r) => r.json());
}

function move(how) {
  const cells = layer();
  if (!cells.size) return;
  post("/api/editor/move", {lattice: $("lattice").value, how: how, cells: [...cells].map(unkey)})
    .then((m) => {
      if (m.error) { error(m.error); return; }
      error("");
      cells.clear();
      for (const c of m.cells) cells.add(key(c));
      const before = [$("rows").value, $("cols").value, $("layers-count").value].join();
      fit(m.cells, 0);  // the grid grown where the piece turned out of it
      if ([$("rows").value, $("cols").value, $("layers-count").value].join() !== before) regrid();
      else refresh();
    });
}
$("turn").addEventListener("click", () => move("turn"));
$("mirror").addEventListener("click", () => move("mirror"));
// a question about the design asked of the server: its answer's note shown, and
// body[data-KEY] set to yes, no or error once it came
function ask(button, path, waiting, key, answered) {
  $(button).addEventListener("click", () => {
    $(button).disabled = true;
    $("solve-note").textContent = waiting;
    $("solve-drawing").innerHTML = "";
    document.body.dataset[key] = "";
    post(path, {design: payload()}).then((a) => {
      $(button).disabled = false;
      if (a.error) { $("solve-note").textContent = ""; error(a.error); document.body.dataset[key] = "error"; return; }
      error("");
      document.body.dataset[key] = answered(a) ? "yes" : "no";
    });
  });
}
ask("solve", "/api/editor/solve", "searching ...", "solved", (s) => {
  $("solve-note").textContent = s.note;
  if (s.svg) $("solve-drawing").innerHTML = s.svg;
  return s.found;
});
ask("unique", "/api/editor/unique", "counting to two ...", "unique", (u) => {
  $("solve-note").textContent = (u.placed ? "With " + u.placed + " piece" + (u.placed > 1 ? "s" : "")
    + " placed: " : "") + u.note;
  return u.unique;
});

folderFiles();
const asked = new URLSearchParams(location.search).get("file");
(asked ? read({file: asked}) : regrid()).then(() => { document.body.dataset.ready = "true"; });
