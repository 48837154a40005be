// Sliding blocks: drag a piece (or click one with a single move). Distances come from the
// God's-algorithm table in the page: the sorted codes of the reachable positions (a position's
// rank is its index) and distance modulo 3 in 2 bits a rank (rank r in bits 2(r%4) of byte r/4).
const G = DATA.groups;
const KEYS = new Float64Array(Uint8Array.from(atob(DATA.keys), (ch) => ch.charCodeAt(0)).buffer);
const TABLE = Uint8Array.from(atob(DATA.table), (ch) => ch.charCodeAt(0));
const COLUMNS = DATA.columns, CELL = DATA.cell, ORIGIN = DATA.origin;
const svg = document.querySelector("#stage svg");
const layer = svg.querySelector(".position");

function binomial(n, k) {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}
function code(position) {  // per group the rank of its placement set, in mixed radix
  let total = 0, multiplier = 1;
  position.forEach((chosen, g) => {
    let rank = 0;
    chosen.forEach((p, i) => { rank += binomial(p, i + 1); });
    total += rank * multiplier;
    multiplier *= G[g].size;
  });
  return total;
}
function residue(position) {  // distance mod 3, or 3 when the position is not in the table
  const c = code(position);
  let lo = 0, hi = KEYS.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (KEYS[mid] < c) lo = mid + 1; else hi = mid; }
  if (lo >= KEYS.length || KEYS[lo] !== c) return 3;
  return (TABLE[lo >> 2] >> ((lo & 3) << 1)) & 3;
}
function occupied(position, except) {  // cell -> true, leaving out one piece [g, p]
  const taken = new Set();
  position.forEach((chosen, g) => chosen.forEach((p) => {
    if (except && except[0] === g && except[1] === p) return;
    for (const c of G[g].placements[p]) taken.add(c);
  }));
  return taken;
}
function movesOf(position, g, p) {  // the placements piece [g, p] can reach in one move
  const taken = occupied(position, [g, p]);
  const free = (q) => G[g].placements[q].every((c) => !taken.has(c));
  const found = [];
  if (DATA.metric === "path") {
    const seen = new Set([p]);
    const queue = [p];
    while (queue.length) {
      const a = queue.shift();
      for (const q of G[g].shifts[a]) {
        if (q >= 0 && !seen.has(q) && free(q)) { seen.add(q); queue.push(q); found.push(q); }
      }
    }
    return found;
  }
  for (let d = 0; d < 4; d++) {
    for (let q = G[g].shifts[p][d]; q >= 0 && free(q); q = G[g].shifts[q][d]) {
      found.push(q);
      if (DATA.metric === "step") break;
    }
  }
  return found;
}
function apply(position, g, p, q) {
  return position.map((chosen, i) => i !== g ? chosen : chosen.map((x) => x === p ? q : x).sort((a, b) => a - b));
}
function allMoves(position) {
  const found = [];
  position.forEach((chosen, g) => chosen.forEach((p) => {
    for (const q of movesOf(position, g, p)) found.push([g, p, q]);
  }));
  return found;
}
function bestMove(position) {  // a move one step nearer to the goal, or null at the goal
  const here = residue(position);
  if (here === 3) return null;
  const nearer = (here + 2) % 3;
  return allMoves(position).find(([g, p, q]) => residue(apply(position, g, p, q)) === nearer) || null;
}
function distance(position) {
  let steps = 0;
  for (let move = bestMove(position); move; move = bestMove(position)) {
    position = apply(position, ...move);
    steps++;
  }
  return steps;
}
function notation(position) {
  const grid = [];
  for (let c = 0; c < DATA.rows * COLUMNS; c++) grid.push(DATA.cells.includes(c) ? "." : "#");
  position.forEach((chosen, g) => chosen.forEach((p) => {
    for (const c of G[g].placements[p]) grid[c] = G[g].letter;
  }));
  const rows = [];
  for (let r = 0; r < DATA.rows; r++) rows.push(grid.slice(r * COLUMNS, (r + 1) * COLUMNS).join(""));
  return rows.join("/");
}

let position = DATA.start.map((c) => c.slice());
let history = [];
const optimum = distance(position);

function draw() {
  layer.querySelectorAll(".piece").forEach((piece) => piece.remove());
  position.forEach((chosen, g) => chosen.forEach((p) => {
    const piece = svgElement("g", {class: "piece", "data-group": g, "data-placement": p,
                                   "data-letter": G[g].letter}, layer);
    const cells = G[g].placements[p];
    for (const c of cells) {  // each cell reaches into the piece's neighbours: one block
      const r = Math.floor(c / COLUMNS), k = c % COLUMNS, inset = 2;
      const left = k * CELL + (k && cells.includes(c - 1) ? 0 : inset);
      const right = (k + 1) * CELL - (k + 1 < COLUMNS && cells.includes(c + 1) ? 0 : inset);
      const top = r * CELL + (cells.includes(c - COLUMNS) ? 0 : inset);
      const bottom = (r + 1) * CELL - (cells.includes(c + COLUMNS) ? 0 : inset);
      svgElement("rect", {x: ORIGIN + left, y: ORIGIN + top, width: right - left,
                          height: bottom - top, fill: G[g].colour, class: "piece-cell",
                          "data-cell": c}, piece);
    }
    piece.classList.toggle("legal", movesOf(position, g, p).length > 0);
  }));
  const d = distance(position);
  setCounters([
    ["distance", `distance to the goal ${d}`],
    ["moves", `moves made ${history.length}`],
    ["optimum", `optimum from the start ${optimum}`],
    ["metric", `${DATA.metric} metric`],
    ["position", notation(position)],
  ]);
  if (d === 0) setStatus(`solved in ${plural(history.length, "move")} (optimum ${optimum})`, true);
}
function play(g, p, q, words) {
  history.push(position);
  position = apply(position, g, p, q);
  setStatus(words || "", false);
  draw();
}
function cellAt(event) {
  const point = svgPoint(svg, event);
  const k = Math.floor((point.x - ORIGIN) / CELL), r = Math.floor((point.y - ORIGIN) / CELL);
  return [r, k];
}

let grabbed = null;  // [g, p, row, column] where the drag started
svg.addEventListener("pointerdown", (event) => {
  const piece = event.target.closest(".piece");
  if (!piece) return;
  const [r, k] = cellAt(event);
  grabbed = [Number(piece.dataset.group), Number(piece.dataset.placement), r, k];
});
svg.addEventListener("pointerup", (event) => {
  if (!grabbed) return;
  const [g, p, r0, k0] = grabbed;
  grabbed = null;
  const [r1, k1] = cellAt(event);
  const reach = movesOf(position, g, p);
  if (r1 === r0 && k1 === k0) {  // a click
    if (reach.length === 1) play(g, p, reach[0]);
    else setStatus(reach.length ? "this piece has several moves: drag it where it should go" : "this piece cannot move", false);
    return;
  }
  const shift = (r1 - r0) * COLUMNS + (k1 - k0);
  const target = G[g].placements[p].map((c) => c + shift).join(",");
  const q = reach.find((x) => G[g].placements[x].join(",") === target);
  if (q === undefined) setStatus(`not a legal move in the ${DATA.metric} metric`, false);
  else play(g, p, q);
});
onButton("hint", () => {
  const move = bestMove(position);
  if (!move) { draw(); return; }
  play(...move, "hint");
});
onButton("undo", () => {
  if (!history.length) return;
  position = history.pop();
  setStatus("", false);
  draw();
});
onButton("reset", () => {
  position = DATA.start.map((c) => c.slice());
  history = [];
  setStatus("", false);
  draw();
});
draw();
