// Edge matching: swap tiles by drag or two clicks, turn them, see mismatches and conflicts.
// The board's geometry comes with the data (any grid: squares, triangles): each cell's corners
// in drawing units (clockwise, side s from corner s to s + 1), its kind (a triangle pointing up
// or down), its sides on the border, and the touching pairs [a, side of a, b, side of b].
const SIDES = DATA.sides;
const CELLS = DATA.cells;
const N = CELLS.length;
const svg = document.querySelector("#stage svg");
const layer = svg.querySelector("#cells");
const marks = svg.querySelector("#marks");
let board = [];        // per cell: {tile, rotation}
let history = [];
let selected = null;
let level = DATA.level;

function turned(edges, rotation) {  // edges by side after `rotation` turns clockwise
  const n = edges.length, r = ((rotation % n) + n) % n;
  return edges.map((_, i) => edges[(i - r + n) % n]);
}
function corner(cell) {  // the top left of the cell's box: where its tile's drawing starts
  const points = CELLS[cell].points;
  return [Math.min(...points.map((p) => p[0])), Math.min(...points.map((p) => p[1]))];
}
function shrunk(cell, by) {  // the cell's outline drawn `by` units inside it
  const points = CELLS[cell].points;
  const cx = points.reduce((s, p) => s + p[0], 0) / points.length;
  const cy = points.reduce((s, p) => s + p[1], 0) / points.length;
  return points.map(([x, y]) => {
    const d = Math.hypot(x - cx, y - cy) || 1;
    return `${x + (cx - x) * by / d},${y + (cy - y) * by / d}`;
  }).join(" ");
}
function sideLine(cell, side, by) {  // a side of a cell, `by` units shorter at each end
  const points = CELLS[cell].points;
  const [x1, y1] = points[side], [x2, y2] = points[(side + 1) % points.length];
  const d = Math.hypot(x2 - x1, y2 - y1) || 1, ux = (x2 - x1) / d, uy = (y2 - y1) / d;
  return { x1: x1 + ux * by, y1: y1 + uy * by, x2: x2 - ux * by, y2: y2 - uy * by };
}
function edgesAt(cell) {
  const { tile, rotation } = board[cell];
  return turned(DATA.tiles[tile].edges, rotation);
}
function matches(a, b) {
  if (DATA.rule === "equal") return a[0] === b[0] && a[1] === b[1];
  return a[0] === b[0] && a[1] !== b[1];
}
function sameEdge(a, b) { return a[0] === b[0] && a[1] === b[1]; }
function apartMark() { return DATA.levels.length ? DATA.levels[level - 1] : DATA.apart; }

const PAIRS = DATA.pairs;

function shuffled() {
  if (DATA.start) return DATA.start.map(([tile, rotation]) => ({ tile, rotation }));  // a given board
  const random = seededRandom(DATA.seed);
  const tiles = [...Array(N).keys()];
  for (let i = N - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  return tiles.map((tile) => ({ tile, rotation: Math.floor(random() * SIDES) }));
}

function draw() {
  layer.textContent = "";
  board.forEach((placed, i) => {
    const [x, y] = corner(i);
    const g = svgElement("g", {
      class: "cell", "data-cell": i, "data-tile": placed.tile, "data-rotation": placed.rotation,
      transform: `translate(${x},${y})`,
    }, layer);
    svgElement("use", { href: `#tile-${placed.tile}-${CELLS[i].kind}-${placed.rotation}` }, g);
    if (selected === i) svgElement("polygon", {
      class: "selected-outline", points: shrunk(i, 3), transform: `translate(${-x},${-y})`,
    }, g);
  });
  evaluate();
}

function evaluate() {
  marks.textContent = "";
  let matched = 0, conflicts = 0, frameBreaks = 0;
  const apart = apartMark();
  for (const [a, side, b, facing] of PAIRS) {
    const ok = matches(edgesAt(a)[side], edgesAt(b)[facing]);
    if (ok) matched++;
    else {
      svgElement("line", {
        class: "mismatch", "data-a": a, "data-b": b, ...sideLine(a, side, 6),
      }, marks);
    }
    if (apart && DATA.tiles[board[a].tile].mark === apart && DATA.tiles[board[b].tile].mark === apart) {
      conflicts++;
      for (const cell of [a, b]) {
        svgElement("polygon", { class: "conflict", "data-cell": cell, points: shrunk(cell, 5) },
          marks);
      }
    }
  }
  // the frame edge faces the border and only the border; a border colour shows on every
  // side on the border
  for (let i = 0; i < N; i++) {
    const outside = CELLS[i].border;
    edgesAt(i).forEach((edge, side) => {
      const framed = DATA.frame && sameEdge(edge, DATA.frame) !== outside[side];
      const bordered = DATA.border && outside[side] && !sameEdge(edge, DATA.border);
      if (framed || bordered) {
        frameBreaks++;
        svgElement("line", { class: "mismatch frame", "data-a": i, ...sideLine(i, side, 0) },
          marks);
      }
    });
  }
  const counters = [["matched", `matched edges ${matched}/${PAIRS.length}`]];
  if (apart) counters.push(["conflicts", `${apart} conflicts ${conflicts}`]);
  if (DATA.levels.length) counters.push(["level-shown", `Level ${level}`]);
  setCounters(counters);
  const solved = matched === PAIRS.length && conflicts === 0 && frameBreaks === 0;
  if (solved) setStatus("solved", true);
  else if (document.body.dataset.solved === "true") setStatus("", false);
  return { matched, conflicts, frameBreaks, solved };
}

function remember() { history.push(board.map((p) => ({ ...p }))); }
function swap(a, b) {
  remember();
  [board[a], board[b]] = [board[b], board[a]];
  selected = null;
  setStatus("", false);
  draw();
}
function rotate(cell, turns) {
  remember();
  board[cell] = { tile: board[cell].tile,
    rotation: (board[cell].rotation + turns + SIDES) % SIDES };
  setStatus("", false);
  draw();
}

function inside(points, x, y) {  // even-odd rule
  let found = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i], [xj, yj] = points[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) found = !found;
  }
  return found;
}
function cellAt(event) {
  const p = svgPoint(svg, event);
  const i = CELLS.findIndex((cell) => inside(cell.points, p.x, p.y));
  return i < 0 ? null : i;
}

let drag = null;
svg.addEventListener("pointerdown", (event) => {
  if (event.button !== 0) return;
  const cell = cellAt(event);
  if (cell === null) return;
  drag = { cell, x: event.clientX, y: event.clientY, moving: false };
  svg.setPointerCapture(event.pointerId);
});
svg.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
  if (!drag.moving && Math.hypot(dx, dy) > 6) drag.moving = true;
  if (drag.moving) {
    const g = layer.querySelector(`[data-cell="${drag.cell}"]`);
    const scale = svg.getScreenCTM().a;
    const [x0, y0] = corner(drag.cell);
    const x = x0 + dx / scale, y = y0 + dy / scale;
    g.setAttribute("transform", `translate(${x},${y})`);
    layer.appendChild(g);  // on top
  }
});
svg.addEventListener("pointerup", (event) => {
  if (!drag) return;
  const start = drag;
  drag = null;
  const cell = cellAt(event);
  if (start.moving) {
    if (cell !== null && cell !== start.cell) swap(start.cell, cell);
    else draw();
    return;
  }
  if (cell === null) return;
  if (selected === null) selected = cell;
  else if (selected === cell) selected = null;
  else return swap(selected, cell);
  draw();
});
svg.addEventListener("contextmenu", (event) => {
  event.preventDefault();
  const cell = cellAt(event);
  if (cell !== null) rotate(cell, 1);
});
document.addEventListener("keydown", (event) => {
  if (selected === null) return;
  if (event.key === "r") rotate(selected, 1);
  else if (event.key === "R" || event.key === "e") rotate(selected, -1);
  else if (event.key === "Escape") { selected = null; draw(); }
});

function looksAlike(cell, tile, rotation) {  // would (tile, rotation) show what the cell shows?
  const a = edgesAt(cell), b = turned(DATA.tiles[tile].edges, rotation);
  return DATA.tiles[board[cell].tile].mark === DATA.tiles[tile].mark &&
    a.every((edge, i) => sameEdge(edge, b[i]));
}

function hint() {
  const solutions = DATA.solutions[String(level)] || [];
  if (!solutions.length) {
    setStatus(DATA.start ? "no hints: this page starts from a given board"
      : "no solution at this level: no hint to give", false);
    return;
  }
  let best = null, bestScore = -1;
  for (const solution of solutions) {
    const score = solution.filter(([t, r], i) => looksAlike(i, t, r)).length;
    if (score > bestScore) { best = solution; bestScore = score; }
  }
  const cell = best.findIndex(([t, r], i) => !looksAlike(i, t, r));
  if (cell < 0) { setStatus("solved", true); return; }
  const [tile, rotation] = best[cell];
  const want = turned(DATA.tiles[tile].edges, rotation);
  const mark = DATA.tiles[tile].mark;
  const candidates = [];  // cells holding a tile that can show the wanted look, wrong ones first
  for (let j = 0; j < N; j++) {
    const t = board[j].tile;
    if (DATA.tiles[t].mark !== mark) continue;
    for (let q = 0; q < SIDES; q++) {
      if (turned(DATA.tiles[t].edges, q).every((edge, i) => sameEdge(edge, want[i]))) {
        const right = j !== cell && looksAlike(j, best[j][0], best[j][1]);
        candidates.push({ j, q, right });
        break;
      }
    }
  }
  candidates.sort((a, b) => Number(a.right) - Number(b.right));
  const { j, q } = candidates[0];
  remember();
  [board[cell], board[j]] = [board[j], board[cell]];
  board[cell] = { tile: board[cell].tile, rotation: q };
  selected = null;
  svg.dataset.hinted = cell;
  draw();
  if (document.body.dataset.solved !== "true") {
    const r = CELLS[cell].row + 1, c = CELLS[cell].col + 1;
    setStatus(`hint: tile ${DATA.tiles[board[cell].tile].name || board[cell].tile + 1} placed at row ${r}, column ${c}`, false);
  }
}

function check() {
  const { matched, conflicts, frameBreaks, solved } = evaluate();
  if (solved) return;
  const parts = [plural(PAIRS.length - matched, "mismatched edge")];
  if (apartMark()) parts.push(plural(conflicts, `${apartMark()} conflict`));
  if (DATA.frame) parts.push(`${plural(frameBreaks, "frame edge")} out of place`);
  else if (DATA.border) parts.push(`${plural(frameBreaks, "border side")} of another colour`);
  setStatus("not solved yet: " + parts.join(", "), false);
}

onButton("rotate", () => { if (selected !== null) rotate(selected, 1); });
onButton("check", check);
onButton("hint", hint);
onButton("undo", () => {
  if (!history.length) return;
  board = history.pop();
  selected = null;
  setStatus("", false);
  draw();
});
onButton("reset", () => { remember(); board = shuffled(); selected = null; setStatus("", false); draw(); });
const levelSelect = document.getElementById("level");
if (levelSelect) levelSelect.addEventListener("change", () => {
  level = Number(levelSelect.value);
  setStatus("", false);
  draw();
});

board = shuffled();
draw();
