// Packing: drag pieces onto the board (or select one and click a cell), turn and flip, hints.
// The lattice (squares, triangles, hexagons) comes as data: each piece's orientations and the
// one a turn or a flip gives, each cell's outline, and which moves are translations.
const SIZE = DATA.size;
const svg = document.querySelector("#stage svg");
const layer = svg.querySelector("#pieces");
let BOARD = new Set(DATA.cells.map(([r, c]) => `${r},${c}`));  // a calendar's: its date's
const FIXED = DATA.placed || {};  // a challenge's pre-placed pieces: index -> cells, immovable
let pieces = [];   // per piece: {o: orientation index, at: [rows, columns] moved, or null}
let history = [];
let selected = null;

function outline([r, c]) {  // a cell's corners, in the drawing's units from the lattice's origin
  const shape = DATA.outline.shapes[(((r + c) % DATA.outline.period) + DATA.outline.period) % DATA.outline.period];
  const [dx, dy] = DATA.outline.step;
  return shape.map(([x, y]) => [x + c * dx, y + r * dy]);
}
function middle(points) {
  return [points.reduce((s, p) => s + p[0], 0) / points.length,
    points.reduce((s, p) => s + p[1], 0) / points.length];
}
function isMove(dr, dc) { return (((dr + dc) % DATA.moves) + DATA.moves) % DATA.moves === 0; }
function shape(index) { return DATA.pieces[index].orientations[pieces[index].o]; }
function moved(cells, at) { return cells.map(([r, c]) => [r + at[0], c + at[1]]); }
function covered(index) { return moved(shape(index), pieces[index].at); }
function key(cells) { return cells.map(([r, c]) => `${r},${c}`).sort().join(" "); }
function sorted(cells) { return [...cells].sort((a, b) => a[0] - b[0] || a[1] - b[1]); }

function occupied(except) {
  const taken = new Set();
  pieces.forEach((piece, i) => {
    if (i !== except && piece.at) for (const [r, c] of covered(i)) taken.add(`${r},${c}`);
  });
  return taken;
}
function fits(index, cells, at) {
  const taken = occupied(index);
  return cells.every(([r, c]) => {
    const k = `${r + at[0]},${c + at[1]}`;
    return BOARD.has(k) && !taken.has(k);
  });
}

// a piece's cells on the board as (orientation, move), or null where no orientation is them
function orientationOf(index, cells) {
  const target = sorted(cells);
  const orientations = DATA.pieces[index].orientations;
  for (let o = 0; o < orientations.length; o++) {
    const own = sorted(orientations[o]);
    const at = [target[0][0] - own[0][0], target[0][1] - own[0][1]];
    if (isMove(at[0], at[1]) && key(moved(own, at)) === key(target)) return { o, at };
  }
  return null;
}

// the solutions embedded in the page, each as the set of cells every piece covers
function solutionCells() {
  return DATA.solutions.map((grid) => {
    const byPiece = DATA.pieces.map(() => []);
    grid.forEach((piece, i) => byPiece[piece].push(DATA.cells[i]));
    return byPiece.map(key);
  });
}
let SOLUTION_CELLS = solutionCells();
function inSomeSolution(index) {
  const k = key(covered(index));
  return SOLUTION_CELLS.some((solution) => solution[index] === k);
}
function agreeing() {  // solutions that agree with every piece on the board
  return SOLUTION_CELLS.filter((solution) => pieces.every((piece, i) =>
    !piece.at || solution[i] === key(covered(i))));
}

function start() {  // every piece in the tray, but a challenge's pieces where it placed them
  return DATA.pieces.map((p, i) => (FIXED[i] ? orientationOf(i, FIXED[i]) : { o: 0, at: null }));
}

function draw() {
  layer.textContent = "";
  const order = [...pieces.keys()].filter((i) => i !== selected);
  if (selected !== null) order.push(selected);  // the selected piece on top
  for (const i of order) {
    const piece = pieces[i];
    const cells = piece.at ? covered(i) : shape(i);
    const corners = cells.map(outline);
    let [x, y] = DATA.origin;
    if (!piece.at) {  // in the tray: the piece's corner on its slot
      const points = corners.flat();
      x = DATA.tray[i][0] - Math.min(...points.map((p) => p[0]));
      y = DATA.tray[i][1] - Math.min(...points.map((p) => p[1]));
    }
    const classes = ["piece"];
    if (selected === i) classes.push("selected");
    if (FIXED[i]) classes.push("fixed");
    if (piece.at && DATA.complete && !inSomeSolution(i)) classes.push("wrong");
    const placedCells = piece.at ? covered(i) : [];
    const g = svgElement("g", {
      class: classes.join(" "), "data-piece": i, "data-name": DATA.pieces[i].name,
      "data-placed": piece.at ? `${Math.min(...placedCells.map((c) => c[0]))},${Math.min(...placedCells.map((c) => c[1]))}` : "",
      "data-cells": piece.at ? key(placedCells) : "", "data-orientation": piece.o,
      transform: `translate(${x},${y})`,
    }, layer);
    cells.forEach((cell, k) => {
      svgElement("polygon", {
        points: corners[k].map((p) => p.join(",")).join(" "), fill: DATA.pieces[i].colour,
        stroke: "#333", "stroke-width": 1, "data-row": cell[0], "data-col": cell[1],
      }, g);
    });
    const centres = corners.map(middle);
    const [mx, my] = middle(centres);
    const nearest = centres.reduce((best, p) =>
      (Math.hypot(p[0] - mx, p[1] - my) < Math.hypot(best[0] - mx, best[1] - my) ? p : best));
    const label = svgElement("text", {
      x: nearest[0], y: nearest[1], "text-anchor": "middle",
      "dominant-baseline": "central", "font-size": SIZE * 0.4 * DATA.label, "font-weight": "bold",
      fill: DATA.pieces[i].text, "pointer-events": "none",
    }, g);
    label.textContent = DATA.pieces[i].name;
  }
  evaluate();
}

function evaluate() {
  const total = BOARD.size;
  const filled = occupied(-1).size;
  const placed = pieces.filter((p) => p.at).length;
  const counters = [["covered", `cells covered ${filled}/${total}`],
    ["placed", `pieces placed ${placed}/${pieces.length}`]];
  if (DATA.complete) {
    counters.push(["agreeing", `solutions still possible ${agreeing().length}/${DATA.solutions.length}`]);
  }
  setCounters(counters);
  const solved = filled === total && placed === pieces.length;
  if (solved) setStatus("solved", true);
  else if (document.body.dataset.solved === "true") setStatus("", false);
  return solved;
}

function remember() { history.push(pieces.map((p) => ({ o: p.o, at: p.at }))); }

function place(index, at) {  // true when placed
  if (!at || !fits(index, shape(index), at)) {
    setStatus(`piece ${DATA.pieces[index].name} does not fit there`, false);
    return false;
  }
  remember();
  pieces[index] = { o: pieces[index].o, at };
  selected = null;
  setStatus("", false);
  draw();
  return true;
}

function reorient(index, change) {
  if (FIXED[index]) { setStatus(`piece ${DATA.pieces[index].name} is placed by the challenge`, false); return; }
  const piece = pieces[index];
  const o = change[piece.o];
  remember();
  const cells = DATA.pieces[index].orientations[o];
  if (piece.at && !fits(index, cells, piece.at)) {
    pieces[index] = { o, at: null };
    setStatus(`piece ${DATA.pieces[index].name} no longer fits there: back in the tray`, false);
  } else {
    pieces[index] = { o, at: piece.at };
  }
  draw();
}
function turnSelected() { if (selected !== null) reorient(selected, DATA.pieces[selected].turn); }
function flipSelected() {
  if (selected === null) return;
  if (!DATA.flip) { setStatus("pieces of this puzzle are not flipped", false); return; }
  reorient(selected, DATA.pieces[selected].flip);
}

// the move that puts the piece's first cell on a board cell, or null where none is a translation
function moveOnto(index, cell) {
  const [fr, fc] = shape(index)[0];
  const at = [cell[0] - fr, cell[1] - fc];
  return isMove(at[0], at[1]) ? at : null;
}
function boardCell(event) {
  const target = event.target.closest && event.target.closest("#board [data-row]");
  if (!target || !target.classList.contains("cell")) return null;
  return [Number(target.dataset.row), Number(target.dataset.col)];
}
function pieceAt(event) {
  const g = event.target.closest && event.target.closest(".piece");
  return g ? Number(g.dataset.piece) : null;
}

let drag = null;
svg.addEventListener("pointerdown", (event) => {
  if (event.button !== 0) return;
  const index = pieceAt(event);
  const point = svgPoint(svg, event);
  if (index !== null && FIXED[index]) {
    setStatus(`piece ${DATA.pieces[index].name} is placed by the challenge`, false);
    return;
  }
  if (index === null) {
    const cell = boardCell(event);
    if (cell && selected !== null) place(selected, moveOnto(selected, cell));  // its first cell there
    return;
  }
  const g = layer.querySelector(`[data-piece="${index}"]`);
  const m = g.transform.baseVal.consolidate().matrix;
  drag = { index, start: point, x: m.e, y: m.f, moving: false };
  svg.setPointerCapture(event.pointerId);
});
svg.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const point = svgPoint(svg, event);
  const dx = point.x - drag.start.x, dy = point.y - drag.start.y;
  if (!drag.moving && Math.hypot(dx, dy) > 5) {
    drag.moving = true;
    selected = drag.index;
    draw();
  }
  if (drag.moving) {
    const g = layer.querySelector(`[data-piece="${drag.index}"]`);
    g.setAttribute("transform", `translate(${drag.x + dx},${drag.y + dy})`);
  }
});
svg.addEventListener("pointerup", (event) => {
  if (!drag) return;
  const { index, moving, start, x, y } = drag;
  drag = null;
  if (!moving) {
    selected = selected === index ? null : index;
    draw();
    return;
  }
  const point = svgPoint(svg, event);
  const piece = pieces[index];
  const first = piece.at ? covered(index)[0] : shape(index)[0];
  // where the piece's first cell was let go, in the lattice's units from its origin
  const [cx, cy] = middle(outline(first));
  const fx = cx + x + point.x - start.x - DATA.origin[0], fy = cy + y + point.y - start.y - DATA.origin[1];
  let best = null, distance = SIZE;  // the board cell nearest it that a translation reaches
  for (const cell of DATA.cells) {
    const [bx, by] = middle(outline(cell));
    const d = Math.hypot(bx - fx, by - fy);
    if (d < distance && moveOnto(index, cell)) { best = cell; distance = d; }
  }
  if (best) {
    if (!place(index, moveOnto(index, best))) draw();
  } else {
    remember();
    pieces[index] = { o: piece.o, at: null };
    selected = null;
    draw();
  }
});
svg.addEventListener("contextmenu", (event) => {
  event.preventDefault();
  const index = pieceAt(event);
  if (index !== null) { selected = index; turnSelected(); }
});
document.addEventListener("keydown", (event) => {
  if (event.key === "r") turnSelected();
  else if (event.key === "f") flipSelected();
  else if (event.key === "Escape") { selected = null; draw(); }
});

function hint() {
  const fitting = agreeing();
  if (!fitting.length) {  // take off a piece that no embedded solution has where it lies
    const wrong = pieces.findIndex((p, i) => p.at && !FIXED[i] && !inSomeSolution(i));
    const index = wrong >= 0 ? wrong : pieces.findIndex((p, i) => p.at && !FIXED[i]);
    remember();
    pieces[index] = { o: pieces[index].o, at: null };
    draw();
    const which = DATA.complete ? "no solution has" : `none of the ${plural(DATA.solutions.length, "solution")} in this page has`;
    setStatus(`hint: ${which} the pieces where they are; piece ${DATA.pieces[index].name} taken off`, false);
    return;
  }
  const index = pieces.findIndex((p) => !p.at);
  if (index < 0) { evaluate(); return; }
  const cells = fitting[0][index].split(" ").map((k) => k.split(",").map(Number));
  remember();
  pieces[index] = orientationOf(index, cells);
  selected = null;
  draw();
  if (document.body.dataset.solved !== "true") {
    setStatus(`hint: piece ${DATA.pieces[index].name} placed as in a solution`, false);
  }
}

function check() {
  if (evaluate()) return;
  const wrong = pieces.filter((p, i) => p.at && DATA.complete && !inSomeSolution(i)).length;
  const left = pieces.filter((p) => !p.at).length;
  let text = `not solved yet: ${plural(left, "piece")} to place`;
  if (DATA.complete) text += `, ${wrong} placed where no solution has them`;
  setStatus(text, false);
}

onButton("rotate", turnSelected);
onButton("flip", flipSelected);
onButton("hint", hint);
onButton("check", check);
onButton("undo", () => {
  if (!history.length) return;
  pieces = history.pop();
  selected = null;
  setStatus("", false);
  draw();
});
onButton("reset", () => {
  remember();
  pieces = start();
  selected = null;
  setStatus("", false);
  draw();
});

// A calendar: the date picked leaves its labels uncovered; hints follow that date's solutions.
function setDate(name) {
  const CAL = DATA.calendar;
  const holes = new Set(name.split(" ").map((word) => CAL.at[word].join(",")));
  DATA.cells = CAL.cells.filter(([r, c]) => !holes.has(`${r},${c}`));
  BOARD = new Set(DATA.cells.map(([r, c]) => `${r},${c}`));
  const index = new Map(CAL.cells.map(([r, c], i) => [`${r},${c}`, i]));
  DATA.solutions = (CAL.solutions[name] || []).map((text) =>
    DATA.cells.map(([r, c]) => text.charCodeAt(index.get(`${r},${c}`))).map((code) =>
      (code >= 97 ? code - 97 : code - 65 + 26)));
  DATA.complete = CAL.complete[name];
  SOLUTION_CELLS = solutionCells();
  for (const cell of svg.querySelectorAll("#board polygon[data-row]")) {
    const k = `${cell.dataset.row},${cell.dataset.col}`;
    if (!index.has(k)) continue;
    cell.setAttribute("class", holes.has(k) ? "hole" : "cell");
    cell.setAttribute("fill", holes.has(k) ? "#d8d8d8" : "#ffffff");
  }
  document.body.dataset.date = name;
  pieces = start();
  history = [];
  selected = null;
  const found = DATA.complete ? plural(DATA.solutions.length, "solution") : `${DATA.solutions.length}+ solutions`;
  setStatus(`${name}: leave it uncovered (${found})`, false);
  draw();
}
function today() {
  const CAL = DATA.calendar;
  const now = new Date();
  const name = `${CAL.months[now.getMonth()]} ${now.getDate()}`;
  return CAL.weekdays ? `${name} ${CAL.weekdays[(now.getDay() + 6) % 7]}` : name;
}

pieces = start();
if (DATA.calendar) {
  const picker = document.getElementById("date");
  const first = DATA.calendar.solutions[today()] ? today() : DATA.calendar.first;
  picker.value = first;
  picker.addEventListener("change", () => setDate(picker.value));
  setDate(first);
} else {
  draw();
}
