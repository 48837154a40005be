// Packing: drag pieces onto the board (or select one and click a cell), turn and flip, hints.
const SIZE = DATA.size;
const svg = document.querySelector("#stage svg");
const layer = svg.querySelector("#pieces");
const BOARD = new Set(DATA.cells.map(([r, c]) => `${r},${c}`));
const CELL_INDEX = new Map(DATA.cells.map(([r, c], i) => [`${r},${c}`, i]));
let pieces = [];   // per piece: {cells (normalised orientation), at: [row, col] or null}
const FIXED = DATA.placed || {};  // a challenge's pre-placed pieces: index -> cells, immovable
let history = [];
let selected = null;

function normalise(cells) {
  const r0 = Math.min(...cells.map((x) => x[0])), c0 = Math.min(...cells.map((x) => x[1]));
  return cells.map(([r, c]) => [r - r0, c - c0]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}
function turnCells(cells) { return normalise(cells.map(([r, c]) => [c, -r])); }  // clockwise
function flipCells(cells) { return normalise(cells.map(([r, c]) => [r, -c])); }  // mirror
function covered(piece) { return piece.cells.map(([r, c]) => [r + piece.at[0], c + piece.at[1]]); }
function key(cells) { return cells.map(([r, c]) => `${r},${c}`).sort().join(" "); }

function occupied(except) {
  const taken = new Set();
  pieces.forEach((piece, i) => {
    if (i !== except && piece.at) for (const [r, c] of covered(piece)) taken.add(`${r},${c}`);
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

// the solutions embedded in the page, each as the set of cells every piece covers
const SOLUTION_CELLS = DATA.solutions.map((grid) => {
  const byPiece = DATA.pieces.map(() => []);
  grid.forEach((piece, i) => byPiece[piece].push(DATA.cells[i]));
  return byPiece.map(key);
});
function inSomeSolution(index) {
  const k = key(covered(pieces[index]));
  return SOLUTION_CELLS.some((solution) => solution[index] === k);
}
function agreeing() {  // solutions that agree with every piece on the board
  return SOLUTION_CELLS.filter((solution) => pieces.every((piece, i) =>
    !piece.at || solution[i] === key(covered(piece))));
}

function start() {  // every piece in the tray, but a challenge's pieces where it placed them
  return DATA.pieces.map((p, i) => FIXED[i]
    ? { cells: normalise(FIXED[i]), at: [Math.min(...FIXED[i].map((x) => x[0])), Math.min(...FIXED[i].map((x) => x[1]))] }
    : { cells: normalise(p.cells), at: null });
}

function trayPosition(index) {
  const slot = DATA.tray[index];
  return [slot[0], slot[1]];
}

function draw() {
  layer.textContent = "";
  const order = [...pieces.keys()].filter((i) => i !== selected);
  if (selected !== null) order.push(selected);  // the selected piece on top
  for (const i of order) {
    const piece = pieces[i];
    const [x, y] = piece.at
      ? [DATA.origin[0] + piece.at[1] * SIZE, DATA.origin[1] + piece.at[0] * SIZE]
      : trayPosition(i);
    const classes = ["piece"];
    if (selected === i) classes.push("selected");
    if (FIXED[i]) classes.push("fixed");
    if (piece.at && DATA.complete && !inSomeSolution(i)) classes.push("wrong");
    const g = svgElement("g", {
      class: classes.join(" "), "data-piece": i, "data-name": DATA.pieces[i].name,
      "data-placed": piece.at ? `${piece.at[0]},${piece.at[1]}` : "", transform: `translate(${x},${y})`,
    }, layer);
    for (const [r, c] of piece.cells) {
      svgElement("rect", {
        x: c * SIZE, y: r * SIZE, width: SIZE, height: SIZE, fill: DATA.pieces[i].colour,
        stroke: "#333", "stroke-width": 1,
      }, g);
    }
    const [r, c] = piece.cells[Math.floor(piece.cells.length / 2)];
    const label = svgElement("text", {
      x: c * SIZE + SIZE / 2, y: r * SIZE + SIZE / 2, "text-anchor": "middle",
      "dominant-baseline": "central", "font-size": SIZE * 0.4, "font-weight": "bold",
      fill: DATA.pieces[i].text, "pointer-events": "none",
    }, g);
    label.textContent = DATA.pieces[i].name;
  }
  evaluate();
}

function evaluate() {
  const total = DATA.cells.length;
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

function remember() { history.push(pieces.map((p) => ({ cells: p.cells, at: p.at }))); }

function place(index, at) {  // true when placed
  if (!fits(index, pieces[index].cells, at)) {
    setStatus(`piece ${DATA.pieces[index].name} does not fit there`, false);
    return false;
  }
  remember();
  pieces[index] = { cells: pieces[index].cells, at };
  selected = null;
  setStatus("", false);
  draw();
  return true;
}

function reorient(index, change) {
  if (FIXED[index]) { setStatus(`piece ${DATA.pieces[index].name} is placed by the challenge`, false); return; }
  const piece = pieces[index];
  const cells = change(piece.cells);
  remember();
  if (piece.at && !fits(index, cells, piece.at)) {
    pieces[index] = { cells, at: null };
    setStatus(`piece ${DATA.pieces[index].name} no longer fits there: back in the tray`, false);
  } else {
    pieces[index] = { cells, at: piece.at };
  }
  draw();
}
function turnSelected() { if (selected !== null) reorient(selected, turnCells); }
function flipSelected() {
  if (selected === null) return;
  if (!DATA.flip) { setStatus("pieces of this puzzle are not flipped", false); return; }
  reorient(selected, flipCells);
}

function boardCell(point) {
  const c = Math.floor((point.x - DATA.origin[0]) / SIZE), r = Math.floor((point.y - DATA.origin[1]) / SIZE);
  return BOARD.has(`${r},${c}`) ? [r, c] : null;
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
    const cell = boardCell(point);
    if (cell && selected !== null) {  // the selected piece's first cell on the clicked cell
      const [ar, ac] = pieces[selected].cells[0];
      place(selected, [cell[0] - ar, cell[1] - ac]);
    }
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
  const left = x + point.x - start.x, top = y + point.y - start.y;
  const at = [Math.round((top - DATA.origin[1]) / SIZE), Math.round((left - DATA.origin[0]) / SIZE)];
  const onBoard = left + SIZE / 2 >= DATA.origin[0] && left < DATA.origin[0] + DATA.width * SIZE &&
    top + SIZE / 2 >= DATA.origin[1] && top < DATA.origin[1] + DATA.height * SIZE;
  if (onBoard) {
    if (!place(index, at)) draw();
  } else {
    remember();
    pieces[index] = { cells: pieces[index].cells, at: null };
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
    pieces[index] = { cells: pieces[index].cells, at: null };
    draw();
    const which = DATA.complete ? "no solution has" : `none of the ${DATA.solutions.length} solutions in this page has`;
    setStatus(`hint: ${which} the pieces where they are; piece ${DATA.pieces[index].name} taken off`, false);
    return;
  }
  const index = pieces.findIndex((p) => !p.at);
  if (index < 0) { evaluate(); return; }
  const cells = fitting[0][index].split(" ").map((k) => k.split(",").map(Number));
  const r0 = Math.min(...cells.map((x) => x[0])), c0 = Math.min(...cells.map((x) => x[1]));
  remember();
  pieces[index] = { cells: normalise(cells), at: [r0, c0] };
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
  let text = `not solved yet: ${left} pieces to place`;
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

pieces = start();
draw();
