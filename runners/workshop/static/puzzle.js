"use strict";
// A puzzle's page: a solution drawn, a count in a worker (progress, stop, resume from its
// checkpoint), solutions drawn page by page. A count's page asks for its progress while it is
// open; the server stops a count no page asks about (a closed tab).
const ref = document.body.dataset.ref;
const q = "puzzle=" + encodeURIComponent(ref);
const $ = (id) => document.getElementById(id);
$("play").href = "/play?" + q;
if (document.body.dataset.noClasses) {  // why its solutions fall in no classes: said, not offered
  for (const option of document.querySelectorAll("option[value=symmetry], option[value=classes]")) {
    option.disabled = true;
    option.title = document.body.dataset.noClasses;
  }
}
if (ref.startsWith("file:")) {
  $("edit").hidden = false;
  $("edit").href = "/editor?file=" + encodeURIComponent(ref.slice(5));
}

function seconds(s) {
  if (s === null || s === undefined) return "?";
  if (s < 90) return Math.round(s) + " s";
  if (s < 5400) return Math.round(s / 60) + " min";
  return (s / 3600).toFixed(1) + " h";
}

// ---------------------------------------------------------------- the count
let job = null;
let polling = null;

function showStatus(s) {
  const bar = $("bar");
  bar.max = Math.max(1, s.total);
  bar.value = s.done;
  let text = s.total ? s.percent.toFixed(1) + "% of the work, " + s.found.toLocaleString("en")
    + " found so far, " + seconds(s.seconds) + " spent" : "starting ...";
  if (s.state === "running" && s.seconds_left !== null) text += ", about " + seconds(s.seconds_left) + " left";
  if (s.state === "stopping") text += " (stopping ...)";
  $("progress").textContent = text;
  $("progress").dataset.state = s.state;
  $("progress").dataset.done = s.done;
  $("progress").dataset.total = s.total;
}

function showAnswer(s) {
  const answer = $("answer");
  answer.innerHTML = "";
  if (s.answer) {
    const a = s.answer;
    const number = document.createElement("p");
    number.className = "number";
    number.id = "number";
    number.textContent = a.count === null ? "no count"
      : (a.complete ? "" : "at least ") + BigInt(a.count).toLocaleString("en");
    number.dataset.count = a.count;
    number.dataset.complete = a.complete;
    const meaning = document.createElement("p");
    meaning.id = "counted";
    meaning.textContent = a.counted;
    answer.append(number, meaning);
    for (const line of s.answer.lines) {
      const p = document.createElement("p");
      p.className = "line muted";
      p.textContent = line;
      answer.appendChild(p);
    }
  }
  if (s.state === "stopped" || s.state === "error" || s.state === "died") {
    const p = document.createElement("p");
    p.id = "stopped";
    p.textContent = s.state === "error" ? "" : "Stopped" + (s.why_stopped ? " (" + s.why_stopped + ")" : "")
      + ": count again to resume from the cubes it finished.";
    answer.appendChild(p);
  }
  $("count-error").textContent = s.state === "error" || s.state === "died" ? s.message : "";
}

function finished(s) {
  clearInterval(polling);
  polling = null;
  $("count").disabled = false;
  $("stop").disabled = true;
  $("modulo").disabled = false;
  showAnswer(s);
  document.body.dataset.count = s.state;
}

function poll() {
  fetch("/api/jobs/" + job).then((r) => r.json()).then((s) => {
    showStatus(s);
    if (!(s.state === "running" || s.state === "stopping")) finished(s);
  });
}

$("count").addEventListener("click", () => {
  $("count").disabled = true;
  $("modulo").disabled = true;
  $("answer").innerHTML = "";
  $("count-error").textContent = "";
  document.body.dataset.count = "running";
  fetch("/api/count", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({puzzle: ref, modulo: $("modulo").value})})
    .then((r) => r.json()).then((s) => {
      if (s.error) { finished({state: "error", message: s.error}); return; }
      job = s.id;
      $("stop").disabled = false;
      showStatus(s);
      polling = setInterval(poll, 250);
    });
});

$("stop").addEventListener("click", () => {
  if (job === null) return;
  $("stop").disabled = true;
  fetch("/api/jobs/" + job + "/stop", {method: "POST", headers: {"Content-Type": "application/json"},
    body: "{}"}).then((r) => r.json()).then(showStatus);
});

// ---------------------------------------------------------------- pictures
function svgFigure(caption, svg) {
  const figure = document.createElement("figure");
  figure.innerHTML = svg;
  const text = document.createElement("figcaption");
  text.textContent = caption;
  figure.appendChild(text);
  return figure;
}

fetch("/api/solution?" + q).then((r) => r.json()).then((s) => {
  const box = $("solution");
  box.innerHTML = "";
  if (s.error) { box.textContent = s.error; box.className = "error"; return; }
  if (s.svg) box.appendChild(svgFigure(s.caption, s.svg));
  else box.textContent = s.caption;
  box.dataset.ready = "true";
});

let page = 0;
function showPage(n) {
  $("next").disabled = true;
  $("previous").disabled = true;
  $("browse").disabled = true;
  $("solutions-note").textContent = "listing ...";
  const browsed = $("browse").value;  // solutions, or classes (one solution each)
  fetch("/api/" + browsed + "?" + q + "&page=" + n).then((r) => r.json()).then((s) => {
    const box = $("solutions");
    box.innerHTML = "";
    $("browse").disabled = false;
    $("statement").textContent = s.statement || "";
    if (s.error) {
      $("solutions-note").textContent = s.error;
      $("next").disabled = false;
      box.dataset.page = "error";
      return;
    }
    page = n;
    for (const f of s.figures) box.appendChild(svgFigure(f.caption, f.svg));
    $("page-number").textContent = "page " + n;
    $("next").textContent = "Next";
    $("next").disabled = !s.more;
    $("previous").disabled = n <= 1;
    $("solutions-note").textContent = s.note || (s.figures.length ? "" : "no solutions on this page");
    box.dataset.page = n;
    box.dataset.browsed = browsed;
  });
}
$("browse").addEventListener("change", () => showPage(1));
$("next").addEventListener("click", () => showPage(page + 1));
$("previous").addEventListener("click", () => showPage(page - 1));

// ---------------------------------------------------------------- a calendar's date
if (document.body.dataset.calendar === "true") {
  $("calendar").hidden = false;
  $("count-date").addEventListener("click", () => {
    $("count-date").disabled = true;
    $("date-error").textContent = "";
    $("date-answer").textContent = "counting ...";
    $("date-drawing").innerHTML = "";
    fetch("/api/calendar?" + q + "&date=" + encodeURIComponent($("date").value))
      .then((r) => r.json()).then((d) => {
        $("count-date").disabled = false;
        const box = $("date-answer");
        box.innerHTML = "";
        if (d.error) { $("date-error").textContent = d.error; document.body.dataset.date = "error"; return; }
        for (const rule of ["dates", "face_up"]) {
          const p = document.createElement("p");
          p.id = "date-" + rule;
          p.dataset.count = d[rule];
          p.textContent = d.date + ": " + Number(d[rule]).toLocaleString("en") + " " + d.counted[rule];
          box.appendChild(p);
        }
        if (d.svg) $("date-drawing").innerHTML = d.svg;
        document.body.dataset.date = d.date;
      });
  });
}

// ---------------------------------------------------------------- cards and a booklet
// The least cards and a booklet are made in a worker, as a count is: its progress is the
// lines the library says, a stop ends it.
let maker = null;

function makerDone(s) {
  clearInterval(maker);
  maker = null;
  $("cards").disabled = $("booklet").disabled = false;
  $("maker-stop").disabled = true;
  const box = $("maker-answer");
  box.innerHTML = "";
  $("maker-error").textContent = s.state === "error" || s.state === "died" ? s.message : "";
  if (s.state === "stopped") $("maker-progress").textContent = "Stopped" + (s.why_stopped ? " (" + s.why_stopped + ")" : "");
  if (s.answer) {
    for (const line of s.answer.lines) {
      const p = document.createElement("p");
      p.className = "line";
      p.textContent = line;
      box.appendChild(p);
    }
    for (const f of s.answer.drawn || []) {
      const figure = svgFigure(f.caption, f.svg);
      figure.title = f.placed;  // where its pieces go, in words
      $("cards-drawn").appendChild(figure);
    }
    if (s.work === "booklet") {
      const link = document.createElement("a");
      link.id = "booklet-download";
      link.href = "/api/jobs/" + s.id + "/booklet.zip";
      link.textContent = "download the booklet (" + plural(s.answer.files.length, "file") + ": booklet.toml, pages, a PDF, play pages)";
      box.appendChild(link);
    }
    box.dataset.least = s.answer.least === undefined ? "" : s.answer.least;
  }
  document.body.dataset.maker = s.work + ":" + s.state;
}

function make(work, body) {
  $("cards").disabled = $("booklet").disabled = true;
  $("maker-answer").innerHTML = $("cards-drawn").innerHTML = "";
  $("maker-error").textContent = "";
  $("maker-progress").textContent = "starting ...";
  document.body.dataset.maker = work + ":running";
  fetch("/api/" + work, {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify(Object.assign({puzzle: ref}, body))}).then((r) => r.json()).then((s) => {
    if (s.error) { makerDone({work: work, state: "error", message: s.error}); return; }
    $("maker-stop").disabled = false;
    $("maker-stop").dataset.job = s.id;
    maker = setInterval(() => fetch("/api/jobs/" + s.id).then((r) => r.json()).then((t) => {
      $("maker-progress").textContent = t.note || (t.state === "stopping" ? "stopping ..." : "at work ...");
      if (!(t.state === "running" || t.state === "stopping")) makerDone(t);
    }), 300);
  });
}
$("cards").addEventListener("click", () => make("cards", {}));
$("booklet").addEventListener("click", () => make("booklet",
  {cards: Number($("booklet-cards").value), seed: Number($("booklet-seed").value)}));
$("maker-stop").addEventListener("click", () => {
  $("maker-stop").disabled = true;
  fetch("/api/jobs/" + $("maker-stop").dataset.job + "/stop", {method: "POST",
    headers: {"Content-Type": "application/json"}, body: "{}"});
});
