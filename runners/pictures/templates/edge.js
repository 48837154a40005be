// Edge matching: swap tiles by drag or two clicks, turn them, see mismatches and conflicts.
const SIZE = DATA.size;
const N = DATA.rows * DATA.cols;
const svg = document.querySelector("#stage svg");
const layer = svg.querySelector("#cells");
const marks = svg.querySelector("#marks");
let board = [];        // per cell: {tile, rotation}
let history = [];
let selected = null;
let level = DATA.level;

function turned(edges, rotation) {  // edges clockwise from the top after `rotation` quarter turns
  const r = ((rotation % 4) + 4) % 4;
  return [0, 1, 2, 3].map((i) => edges[(i - r + 4) % 4]);
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

function pairs() {  // [a, b, side of a]: b right of a (1) or below a (2)
  const out = [];
  for (let i = 0; i < N; i++) {
    const r = Math.floor(i / DATA.cols), c = i % DATA.cols;
    if (c + 1 < DATA.cols) out.push([i, i + 1, 1]);
    if (r + 1 < DATA.rows) out.push([i, i + DATA.cols, 2]);
  }
  return out;
}
const PAIRS = pairs();

function shuffled() {
  if (DATA.start) return DATA.start.map(([tile, rotation]) => ({ tile, rotation }));  // a given board
  const random = seededRandom(DATA.seed);
  const tiles = [...Array(N).keys()];
  for (let i = N - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  return tiles.map((tile) => ({ tile, rotation: Math.floor(random() * 4) }));
}

function draw() {
  layer.textContent = "";
  board.forEach((placed, i) => {
    const x = (i % DATA.cols) * SIZE, y = Math.floor(i / DATA.cols) * SIZE;
    const g = svgElement("g", {
      class: "cell", "data-cell": i, "data-tile": placed.tile, "data-rotation": placed.rotation,
      transform: `translate(${x},${y})`,
    }, layer);
    svgElement("use", { href: `#tile-${placed.tile}-${placed.rotation}` }, g);
    if (selected === i) svgElement("rect", {
      class: "selected-outline", x: 2, y: 2, width: SIZE - 4, height: SIZE - 4,
    }, g);
  });
  evaluate();
}

function evaluate() {
  marks.textContent = "";
  let matched = 0, conflicts = 0, frameBreaks = 0;
  const apart = apartMark();
  for (const [a, b, side] of PAIRS) {
    const ok = matches(edgesAt(a)[side], edgesAt(b)[(side + 2) % 4]);
    if (ok) matched++;
    else {
      const r = Math.floor(b / DATA.cols), c = b % DATA.cols;
      const x = c * SIZE, y = r * SIZE;
      const line = side === 1 ? [x, y + 6, x, y + SIZE - 6] : [x + 6, y, x + SIZE - 6, y];
      svgElement("line", {
        class: "mismatch", "data-a": a, "data-b": b,
        x1: line[0], y1: line[1], x2: line[2], y2: line[3],
      }, marks);
    }
    if (apart && DATA.tiles[board[a].tile].mark === apart && DATA.tiles[board[b].tile].mark === apart) {
      conflicts++;
      for (const cell of [a, b]) {
        svgElement("rect", {
          class: "conflict", "data-cell": cell, x: (cell % DATA.cols) * SIZE + 5,
          y: Math.floor(cell / DATA.cols) * SIZE + 5, width: SIZE - 10, height: SIZE - 10,
        }, marks);
      }
    }
  }
  if (DATA.frame) {
    for (let i = 0; i < N; i++) {
      const r = Math.floor(i / DATA.cols), c = i % DATA.cols;
      const outside = [r === 0, c === DATA.cols - 1, r === DATA.rows - 1, c === 0];
      edgesAt(i).forEach((edge, side) => {
        if (sameEdge(edge, DATA.frame) !== outside[side]) {
          frameBreaks++;
          const x = c * SIZE, y = r * SIZE;
          const ends = [[x, y, x + SIZE, y], [x + SIZE, y, x + SIZE, y + SIZE],
            [x, y + SIZE, x + SIZE, y + SIZE], [x, y, x, y + SIZE]][side];
          svgElement("line", { class: "mismatch frame", "data-a": i, x1: ends[0], y1: ends[1],
            x2: ends[2], y2: ends[3] }, marks);
        }
      });
    }
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
  board[cell] = { tile: board[cell].tile, rotation: (board[cell].rotation + turns + 4) % 4 };
  setStatus("", false);
  draw();
}

function cellAt(event) {
  const p = svgPoint(svg, event);
  const c = Math.floor(p.x / SIZE), r = Math.floor(p.y / SIZE);
  if (r < 0 || c < 0 || r >= DATA.rows || c >= DATA.cols) return null;
  return r * DATA.cols + c;
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
    const x = (drag.cell % DATA.cols) * SIZE + dx / scale;
    const y = Math.floor(drag.cell / DATA.cols) * SIZE + dy / scale;
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
    for (let q = 0; q < 4; q++) {
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
    const r = Math.floor(cell / DATA.cols) + 1, c = (cell % DATA.cols) + 1;
    setStatus(`hint: tile ${DATA.tiles[board[cell].tile].name || board[cell].tile + 1} placed at row ${r}, column ${c}`, false);
  }
}

function check() {
  const { matched, conflicts, frameBreaks, solved } = evaluate();
  if (solved) return;
  const parts = [`${PAIRS.length - matched} mismatched edges`];
  if (apartMark()) parts.push(`${conflicts} ${apartMark()} conflicts`);
  if (DATA.frame) parts.push(`${frameBreaks} frame edges out of place`);
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
