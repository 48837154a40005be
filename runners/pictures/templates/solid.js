// The 3D page: three.js and its orbit controls, inlined as text, become modules through blob:
// URLs; the assembly is drawn from each piece's faces or balls (computed by puzzlesat), a piece
// at a time.
const DATA = JSON.parse(document.getElementById("puzzle-data").textContent);

function moduleUrl(id, replacements) {
  let text = document.getElementById(id).textContent;
  for (const [from, to] of replacements) text = text.split(from).join(to);
  return URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
}

const coreUrl = moduleUrl("three-core", []);
const threeUrl = moduleUrl("three-module", [["'@three-core@'", JSON.stringify(coreUrl)]]);
const controlsUrl = moduleUrl("three-controls", [["'@three-module@'", JSON.stringify(threeUrl)]]);
const THREE = await import(threeUrl);
const { OrbitControls } = await import(controlsUrl);

const stage = document.getElementById("stage");
const renderer = new THREE.WebGLRenderer({ antialias: true });
renderer.setPixelRatio(window.devicePixelRatio || 1);
renderer.setSize(stage.clientWidth, stage.clientHeight);
renderer.setClearColor(0xf6f6f2);
stage.appendChild(renderer.domElement);

const scene = new THREE.Scene();
scene.add(new THREE.AmbientLight(0xffffff, 1.1));
const sun = new THREE.DirectionalLight(0xffffff, 2.2);
sun.position.set(3, 10, 6);
scene.add(sun);
const fill = new THREE.DirectionalLight(0xffffff, 0.7);
fill.position.set(-6, -2, -4);
scene.add(fill);

// Puzzle cells are (x, y, z) with z up; three.js has y up: turn the whole box a quarter turn
// about x, (x, y, z) -> (x, z, -y), a rotation (never a mirror image of a chiral piece).
const [W, D, H] = DATA.size;
const box = new THREE.Group();
box.rotation.x = -Math.PI / 2;
box.position.set(-W / 2, -H / 2, D / 2);
scene.add(box);

const frame = new THREE.LineSegments(
  new THREE.EdgesGeometry(new THREE.BoxGeometry(W, D, H)),
  new THREE.LineBasicMaterial({ color: 0x8a8a80 }));
frame.position.set(W / 2, D / 2, H / 2);
box.add(frame);

function corners(x, y, z, dx, dy, dz) {  // a face's corners, counter-clockwise from outside
  const d = [dx, dy, dz];
  const k = d.findIndex((v) => v !== 0);
  const i = (k + 1) % 3, j = (k + 2) % 3;
  const base = [x, y, z];
  if (d[k] > 0) base[k] += 1;
  const out = [[0, 0], [1, 0], [1, 1], [0, 1]].map(([a, b]) => {
    const p = base.slice();
    p[i] += a;
    p[j] += b;
    return p;
  });
  return d[k] > 0 ? out : out.reverse();
}

function ballGroup(piece) {  // a piece of balls: spheres, and rods joining those touching
  const material = new THREE.MeshLambertMaterial({ color: piece.colour });
  const group = new THREE.Group();
  const sphere = new THREE.SphereGeometry(0.49, 24, 16);
  for (const [x, y, z] of piece.balls) {
    const ball = new THREE.Mesh(sphere, material);
    ball.position.set(x, y, z);
    group.add(ball);
  }
  const up = new THREE.Vector3(0, 1, 0);
  for (const [i, j] of piece.bonds) {
    const a = new THREE.Vector3(...piece.balls[i]), b = new THREE.Vector3(...piece.balls[j]);
    const rod = new THREE.Mesh(new THREE.CylinderGeometry(0.2, 0.2, a.distanceTo(b), 12), material);
    rod.position.copy(a).add(b).multiplyScalar(0.5);
    rod.quaternion.setFromUnitVectors(up, b.clone().sub(a).normalize());
    group.add(rod);
  }
  group.visible = false;
  return group;
}

function pieceGroup(piece) {  // a piece's surface, flat shaded, outlined where it folds
  if (piece.balls) return ballGroup(piece);
  const positions = [];
  for (const [x, y, z, dx, dy, dz] of piece.faces) {
    const [a, b, c, d] = corners(x, y, z, dx, dy, dz);
    positions.push(...a, ...b, ...c, ...a, ...c, ...d);
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.Float32BufferAttribute(positions, 3));
  geometry.computeVertexNormals();
  const group = new THREE.Group();
  group.add(new THREE.Mesh(geometry, new THREE.MeshLambertMaterial({
    color: piece.colour, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 })));
  group.add(new THREE.LineSegments(new THREE.EdgesGeometry(geometry, 1),
    new THREE.LineBasicMaterial({ color: 0x222222 })));
  group.visible = false;
  return group;
}

let solution = null;  // the solution shown: its data, its pieces' groups, the legend's entries
let shown = 0;
const legend = document.getElementById("legend");

function choose(index) {
  if (solution) {
    for (const group of solution.groups) {
      box.remove(group);
      group.traverse((o) => { if (o.geometry) o.geometry.dispose(); if (o.material) o.material.dispose(); });
    }
  }
  const data = DATA.solutions[index];
  const groups = data.pieces.map(pieceGroup);
  groups.forEach((group) => box.add(group));
  legend.textContent = "";
  const entries = data.order.map((piece) => {  // one entry per piece in the order they go in
    const span = document.createElement("span");
    const swatch = document.createElement("i");
    swatch.style.background = data.pieces[piece].colour;
    span.append(swatch, data.pieces[piece].name);
    legend.appendChild(span);
    return span;
  });
  solution = { data, groups, entries };
  document.body.dataset.solution = String(index + 1);
}

const camera = new THREE.PerspectiveCamera(35, stage.clientWidth / stage.clientHeight, 0.1, 1000);
const reach = Math.max(W, D, H) * 2.6 + 2;
function resetView() {  // from above the box's corner at the largest x, y: the drawings' view
  camera.position.set(reach * 0.8, reach * 0.75, -reach * 0.8);
  camera.lookAt(0, 0, 0);
  controls.target.set(0, 0, 0);
  controls.update();
}
const controls = new OrbitControls(camera, renderer.domElement);
controls.addEventListener("change", render);

function render() {
  renderer.render(scene, camera);
  const p = camera.position;
  document.body.dataset.view = [p.x, p.y, p.z].map((v) => v.toFixed(3)).join(",");
  document.body.dataset.triangles = String(renderer.info.render.triangles);
}

const START = DATA.placed;  // a challenge's pre-placed pieces go in first and stay

function show(k) {
  const { data, groups, entries } = solution;
  shown = Math.max(START, Math.min(data.order.length, k));
  data.order.forEach((index, step) => {
    groups[index].visible = step < shown;
    entries[step].className = (step < shown ? "placed" : "") + (step === shown - 1 ? " last" : "")
      + (step < START ? " card" : "");
  });
  const last = shown ? ` (last: ${data.pieces[data.order[shown - 1]].name})` : "";
  document.getElementById("shown").textContent =
    `${shown} of ${data.order.length} pieces in the box${last}`;
  document.body.dataset.shown = String(shown);
  document.getElementById("status").textContent =
    shown === data.order.length ? "The box is full." : "";
  render();
}

const actions = {
  next: () => show(shown + 1), previous: () => show(shown - 1),
  all: () => show(solution.data.order.length), none: () => show(START),
  view: () => { resetView(); render(); },
};
for (const [id, action] of Object.entries(actions)) {
  document.getElementById(id).addEventListener("click", action);
}
const keys = { n: "next", ArrowRight: "next", p: "previous", ArrowLeft: "previous", a: "all",
  0: "none", v: "view" };
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const action = keys[event.key];
  if (action) {
    actions[action]();
    event.preventDefault();
  }
});
window.addEventListener("resize", () => {
  renderer.setSize(stage.clientWidth, stage.clientHeight);
  camera.aspect = stage.clientWidth / stage.clientHeight;
  camera.updateProjectionMatrix();
  render();
});

const picker = document.getElementById("solution");
if (picker) {
  picker.addEventListener("change", () => {
    choose(Number(picker.value));
    show(START || solution.data.order.length);
    picker.blur();  // the keys step through the assembly again
  });
}

resetView();
choose(0);
show(START || solution.data.order.length);
document.body.dataset.ready = "true";
