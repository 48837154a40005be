// Mind Lock: click a legal move; distances come from the God's-algorithm table in the page,
// distance modulo 3 in 2 bits a position (rank r in bits 2(r%4) of byte r/4).
const GAP = 0, GREEN = 1, PURPLE = 2, YELLOW = 3;
const GAP_CELLS = [0, 1, 2, 3, 8, 9, 10, 11];
const ARRANGEMENTS = 330 * 35;
const LETTERS = ".GPY";
const TABLE = Uint8Array.from(atob(DATA.table), (ch) => ch.charCodeAt(0));
const SOLVED = new Set(DATA.solved_ranks);
const BINOMIAL = [];
for (let n = 0; n < 12; n++) {
  BINOMIAL.push([]);
  for (let k = 0; k < 5; k++) BINOMIAL[n].push(k === 0 ? 1 : n === 0 ? 0 : BINOMIAL[n - 1][k - 1] + BINOMIAL[n - 1][k]);
}
const svg = document.querySelector("#stage svg");

function rank(position) {
  const gap = position.indexOf(GAP);
  const pieces = position.filter((_, i) => i !== gap);
  let purple = 0, green = 0, seenPurple = 0, seenGreen = 0, other = 0;
  pieces.forEach((piece, slot) => {
    if (piece === PURPLE) { seenPurple++; purple += BINOMIAL[slot][seenPurple]; }
    else {
      if (piece === GREEN) { seenGreen++; green += BINOMIAL[other][seenGreen]; }
      other++;
    }
  });
  return GAP_CELLS.indexOf(gap) * ARRANGEMENTS + purple * 35 + green;
}
function residue(number) { return (TABLE[number >> 2] >> ((number & 3) << 1)) & 3; }

function moveCells(gap, move) {  // [cell, cell whose piece it receives]
  if (move === "push") {
    const column = [gap % 4, (gap % 4) + 4, (gap % 4) + 8];
    if (gap >= 8) column.reverse();
    return [[column[0], column[1]], [column[1], column[2]], [column[2], column[0]]];
  }
  const other = gap ^ (move === "horizontal" ? 1 : 2);
  return [[gap, other], [other, gap]];
}
function applyMove(position, move) {
  const after = position.slice();
  for (const [cell, source] of moveCells(position.indexOf(GAP), move)) after[cell] = position[source];
  return after;
}
const MOVES = ["push", "horizontal", "vertical"];

function bestMove(position) {  // a move one step nearer to solved, or null when solved
  const number = rank(position);
  if (SOLVED.has(number)) return null;
  const nearer = (residue(number) + 2) % 3;
  return MOVES.find((move) => residue(rank(applyMove(position, move))) === nearer);
}
function distance(position) {
  let steps = 0;
  let here = position;
  for (let move = bestMove(here); move; move = bestMove(here)) {
    here = applyMove(here, move);
    steps++;
  }
  return steps;
}
function notation(position) {
  const letters = position.map((p) => LETTERS[p]).join("");
  return `${letters.slice(0, 4)}/${letters.slice(4, 8)}/${letters.slice(8)}`;
}
function parse(text) {
  const letters = text.toUpperCase().replace(/\//g, "");
  return [...letters].map((ch) => LETTERS.indexOf(ch));
}

let start = DATA.start.slice();
let position = start.slice();
let history = [];
let optimum = distance(start);

function moveForCell(cell) {  // the move a click on a cell makes, or null when none
  const gap = position.indexOf(GAP);
  if (cell === gap || cell % 4 === gap % 4) return "push";
  if (Math.floor(cell / 4) === Math.floor(gap / 4)) {
    if (cell === (gap ^ 1)) return "horizontal";
    if (cell === (gap ^ 2)) return "vertical";
  }
  return null;
}

function draw() {
  svg.querySelectorAll(".cell").forEach((rect) => {
    const cell = Number(rect.dataset.cell);
    rect.setAttribute("fill", DATA.colours[position[cell]]);
    rect.setAttribute("data-piece", LETTERS[position[cell]]);
    rect.setAttribute("stroke-dasharray", position[cell] === GAP ? "6 4" : "");
    const move = moveForCell(cell);
    rect.classList.toggle("legal", move !== null && position[cell] !== GAP);
    rect.setAttribute("data-move", move || "");
  });
  const d = distance(position);
  const made = history.length;
  setCounters([
    ["distance", `distance to solved ${d}`],
    ["moves", `moves made ${made}`],
    ["optimum", `optimum from the start ${optimum}`],
    ["position", notation(position)],
  ]);
  if (d === 0) {
    setStatus(`solved in ${plural(made, "move")} (optimum ${optimum})`, true);
  }
}

function play(move, words) {
  history.push(position);
  position = applyMove(position, move);
  setStatus(words || "", false);
  draw();
}

svg.addEventListener("click", (event) => {
  const rect = event.target.closest(".cell");
  if (!rect) return;
  const move = moveForCell(Number(rect.dataset.cell));
  if (move) play(move);
  else setStatus("not a legal move: click a piece beside the gap on its face, or the gap's column to push", false);
});
for (const move of MOVES) onButton(`move-${move}`, () => play(move));
onButton("hint", () => {
  const move = bestMove(position);
  if (!move) { draw(); return; }
  play(move, `hint: ${move}`);
});
onButton("undo", () => {
  if (!history.length) return;
  position = history.pop();
  setStatus("", false);
  draw();
});
function restart(from) {
  start = from.slice();
  position = start.slice();
  history = [];
  optimum = distance(start);
  setStatus("", false);
  draw();
}
onButton("reset", () => restart(start));
const startSelect = document.getElementById("start");
startSelect.addEventListener("change", () => restart(parse(startSelect.value)));
onButton("random", () => {
  let from = DATA.solved_positions[0].slice();
  const random = Math.random;
  for (let i = 0; i < 200; i++) from = applyMove(from, MOVES[Math.floor(random() * 3)]);
  restart(from);
});
draw();
