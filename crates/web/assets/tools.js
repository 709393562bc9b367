// The long-work panels beside the board: mate solver, tablebase and fortress detector. Each
// shows its progress (elapsed time, and the solver's iterations or the detector's stages as the
// server streams them) and can be cancelled (aborting the request stops the job on
// the server); the API helper shared by the page lives here too.

export const $ = (id) => document.getElementById(id);
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

/** A JSON API call; a failure throws the server's own message (with `status`). */
export async function api(path, body, signal) {
  const opts = body === undefined ? { signal } : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal };
  const r = await fetch('/api' + path, opts);
  let j;
  try { j = await r.json(); } catch (_) { j = { error: `${r.status} ${r.statusText}` }; }
  if (!r.ok) { const e = new Error(j.error || `${r.status} ${r.statusText}`); e.status = r.status; throw e; }
  return j;
}

/** Reads the `event:`/`data:` blocks of a text/event-stream response, calling on(event, data) for each. */
export async function readEvents(resp, on) {
  const reader = resp.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += dec.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i); buf = buf.slice(i + 2);
      let ev = 'message'; const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) ev = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length) on(ev, data.join('\n'));
    }
  }
}

/**
 * A long job as server-sent events: POSTs `body` to `path` asking for a stream, calls
 * `onEvent(name, data)` for each progress event, and returns the `done` answer. A refusal or an
 * `error` event throws the server's own message.
 */
async function streamApi(path, body, signal, onEvent) {
  const r = await fetch('/api' + path, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' }, body: JSON.stringify(body), signal,
  });
  if (!r.ok) {
    let j = null;
    try { j = await r.json(); } catch (_) { /* not JSON */ }
    const e = new Error((j && j.error) || `${r.status} ${r.statusText}`); e.status = r.status; throw e;
  }
  let answer = null, failure = null;
  await readEvents(r, (ev, data) => {
    const d = JSON.parse(data);
    if (ev === 'done') answer = d;
    else if (ev === 'error') { failure = new Error(d.error); failure.status = d.status; }
    else if (!answer && !failure) onEvent(ev, d);
  });
  if (failure) throw failure;
  if (!answer) throw new Error('the connection closed before the answer came');
  return answer;
}

/** A score from the side to move's view ({cp} or {mate}) as White's view. */
export function scoreWhite(s, turn) {
  const k = turn === 'white' ? 1 : -1;
  return s.mate !== undefined && s.mate !== null ? { mate: s.mate * k } : { cp: s.cp * k };
}

let LIMITS = {};
/** The server's ranges, for the requests these panels send. */
export function setLimits(l) { LIMITS = l; }

/**
 * Runs one long request with a ticking elapsed time and a Cancel button; returns the answer or
 * null. The request streams (see `streamApi`): `onEvent(name, data)` hears each progress event,
 * and what it returns, if anything, is shown beside the elapsed time.
 */
async function longJob(prefix, path, body, out, onEvent) {
  const run = $(`${prefix}-run`) || $(`${prefix}-solve`), cancel = $(`${prefix}-cancel`), progress = $(`${prefix}-progress`);
  const ctl = new AbortController();
  const t0 = performance.now();
  const secs = () => ((performance.now() - t0) / 1000).toFixed(1);
  let stage = '';
  const tick = () => { progress.textContent = `running… ${secs()} s${stage ? ` — ${stage}` : ''}`; };
  tick();
  const timer = setInterval(tick, 100);
  cancel.hidden = false; run.disabled = true;
  cancel.onclick = () => ctl.abort();
  out.innerHTML = '';
  try {
    const r = await streamApi(path, body, ctl.signal, (ev, d) => { stage = onEvent(ev, d) || stage; tick(); });
    progress.textContent = `done in ${secs()} s`;
    return r;
  } catch (e) {
    if (e.name === 'AbortError') progress.textContent = `cancelled after ${secs()} s`;
    else { progress.textContent = ''; out.insertAdjacentHTML('afterbegin', `<span class="err">${esc(e.message)}</span>`); }
    return null;
  } finally {
    clearInterval(timer);
    cancel.hidden = true; run.disabled = false;
  }
}

const secsText = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** The solver's iterations so far: one row per solution length tried. */
function solverIterations(prefix, rows) {
  return '<table class="iters" id="sv-iters"><thead><tr><th>length</th><th>result</th><th>nodes</th><th>time</th></tr></thead><tbody>' +
    rows.map((i) => `<tr class="${i.found ? 'found' : ''}"><td>${esc(prefix)}${i.moves}</td><td>${i.found ? 'solution' : 'none'}</td>` +
      `<td>${i.nodes.toLocaleString()}</td><td>${secsText(i.time_ms)}</td></tr>`).join('') + '</tbody></table>';
}

/** One stage of the fortress detector in words. */
function fortressStage(s) {
  if (s.stage === 'main') return `main search: depth ${s.depth}`;
  if (s.stage === 'line') return `main search: depth ${s.depth}`;
  if (s.stage === 'probe') return `progress test: search ${s.step}, ${s.moves_left} moves before the fifty-move draw`;
  if (s.stage === 'breakthrough') return `breakthrough search: move ${s.index} of ${s.total}`;
  if (s.stage === 'replies') return `breakthrough search: replies to ${s.san}`;
  if (s.stage === 'avoid') return `avoidance: move ${s.index} of ${s.total}`;
  return s.text || s.stage;
}

/** The main search's lines so far, one row per depth (the curves' points as they come). */
function fortressLines(lines) {
  const byDepth = new Map();
  for (const l of lines) {
    if (!byDepth.has(l.depth)) byDepth.set(l.depth, []);
    const row = byDepth.get(l.depth);
    row[l.multipv - 1] = l;
  }
  const width = Math.max(...[...byDepth.values()].map((r) => r.length));
  const head = Array.from({ length: width }, (_, i) => `<th>line ${i + 1}</th>`).join('');
  const rows = [...byDepth.entries()].sort((a, b) => b[0] - a[0]).map(([d, row]) =>
    `<tr data-depth="${d}"><td>${d}</td>${Array.from({ length: width }, (_, i) => row[i]
      ? `<td>${esc(row[i].san)} <b>${esc(row[i].eval)}</b></td>` : '<td></td>').join('')}</tr>`).join('');
  return `<table class="iters" id="fo-lines"><thead><tr><th>depth</th>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** The fortress detector's stages so far: the depths of the main search with their lines
 * (evaluations, White's view), then the later steps. */
function fortressLog(stages) {
  const depths = stages.filter((s) => s.stage === 'main');
  const lines = stages.filter((s) => s.stage === 'line');
  const rest = stages.filter((s) => s.stage !== 'main' && s.stage !== 'line');
  let html = '<div id="fo-log">';
  if (depths.length) {
    html += '<div class="note">Depths reached by the main search:</div><div class="depths">' +
      depths.map((s) => `<span class="fo-depth" data-depth="${s.depth}" title="after ${secsText(s.time_ms)}">${s.depth}<small>${(s.time_ms / 1000).toFixed(1)} s</small></span>`).join('') + '</div>';
  }
  if (lines.length) html += fortressLines(lines);
  if (rest.length) html += `<ol class="fo-steps">${rest.map((s) => `<li>${esc(fortressStage(s))} <small>${secsText(s.time_ms)}</small></li>`).join('')}</ol>`;
  return html + '</div>';
}

function solverNode(n, depth) {
  const kids = (n.children || []).map((c) => solverNode(c, depth + 1)).join('');
  return kids ? `<details${depth < 1 ? ' open' : ''}><summary>${esc(n.san)}</summary>${kids}</details>` : `<div>${esc(n.san)}</div>`;
}

function renderSolver(r) {
  let html = `<div class="verdict">${r.status === 'solved' ? 'Solved' : 'No solution'}: ${esc(r.stipulation)}</div>`;
  html += `<div class="note">${r.keys.length || r.lines.length} solution(s), ${r.nodes.toLocaleString()} nodes, ${(r.elapsed_ms / 1000).toFixed(2)} s</div>`;
  r.keys.forEach((k, i) => {
    html += `<div class="key"><b>Key ${esc(k.san)}</b> (mate in ${k.moves})${k.threat ? ` — threat: ${esc(k.threat)}` : ''} <button class="small" data-key="${i}">play</button><div class="line">${esc(k.main_line_text)}</div>`;
    if (k.defences.length) html += `<details><summary>defences</summary>${k.defences.map((d) => solverNode(d, 1)).join('')}</details>`;
    html += '</div>';
  });
  for (const l of r.lines) html += `<div class="line">${esc(l)}</div>`;
  return html;
}

function renderTablebase(r) {
  let html = `<div class="verdict ${esc(r.wdl)}">${esc(r.value_text || r.wdl)}</div>`;
  if (r.syzygy) html += `<div class="note">Syzygy: ${esc(r.syzygy.wdl)}${r.syzygy.dtz !== undefined && r.syzygy.dtz !== null ? `, DTZ ${esc(r.syzygy.dtz)}` : ''}</div>`;
  if (r.line_san && r.line_san.length) html += `<div class="note">optimal line: <span class="line">${esc(r.line_san.join(' '))}</span></div>`;
  const dtz = r.moves.some((m) => m.dtz !== undefined && m.dtz !== null);
  html += `<table class="tbmoves"><thead><tr><th>move</th><th>result</th><th>DTM</th>${dtz ? '<th>DTZ</th>' : ''}</tr></thead><tbody>`;
  for (const m of r.moves) {
    html += `<tr class="${esc(m.wdl)}" data-uci="${esc(m.uci)}" title="play ${esc(m.san)}"><td class="san">${esc(m.san)}</td><td class="val">${esc(m.value_text || m.wdl)}</td>` +
      `<td>${m.dtm === null || m.dtm === undefined ? '' : esc(m.dtm)}</td>${dtz ? `<td>${m.dtz === null || m.dtz === undefined ? '' : esc(m.dtz)}</td>` : ''}</tr>`;
  }
  return `${html}</tbody></table>`;
}

/** The evaluation-by-depth curves as an SVG that scales to its panel. */
function plotSvg(curves, title) {
  const W = 560, H = 300, L = 46, R = 10, T = 30, B = 34;
  const pts = curves.flatMap((c) => c.points);
  if (!pts.length) return '<div class="note">no data points</div>';
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const x0 = Math.min(...xs), x1 = Math.max(...xs, x0 + 1);
  let y0 = Math.min(...ys, 0), y1 = Math.max(...ys, 0);
  if (y1 - y0 < 50) { y1 += 25; y0 -= 25; }
  const X = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R), Y = (y) => T + ((y1 - y) / (y1 - y0)) * (H - T - B);
  const colors = ['#2f6fb3', '#c0392b', '#27ae60', '#8e44ad', '#d35400', '#16a085'];
  let s = `<svg class="plot" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" font-size="12">`;
  s += `<text x="${W / 2}" y="18" text-anchor="middle" font-weight="700">${esc(title)}</text>`;
  s += `<line x1="${L}" y1="${Y(0)}" x2="${W - R}" y2="${Y(0)}" stroke="#999" stroke-dasharray="4 3"/>`;
  s += `<line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="#333"/><line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="#333"/>`;
  for (let i = 0; i <= 4; i++) { const v = y0 + ((y1 - y0) * i) / 4; s += `<text x="${L - 4}" y="${Y(v) + 4}" text-anchor="end">${Math.round(v)}</text>`; }
  const step = Math.max(1, Math.ceil((x1 - x0) / 10));
  for (let x = x0; x <= x1; x += step) s += `<text x="${X(x)}" y="${H - B + 15}" text-anchor="middle">${x}</text>`;
  s += `<text x="${(L + W - R) / 2}" y="${H - 3}" text-anchor="middle">depth</text>`;
  curves.forEach((c, i) => {
    const col = colors[i % colors.length];
    s += `<polyline fill="none" stroke="${col}" stroke-width="2" points="${c.points.map((p) => `${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join(' ')}"/>`;
    for (const p of c.points) s += `<circle cx="${X(p[0]).toFixed(1)}" cy="${Y(p[1]).toFixed(1)}" r="2.5" fill="${col}"/>`;
    s += `<text x="${L + 8}" y="${T + 12 + 14 * i}" fill="${col}">${esc(c.label)}</text>`;
  });
  return `${s}</svg>`;
}

const pawns = (v) => (typeof v === 'number' ? v.toFixed(2) : esc(v));
function lastEval(curve) {
  const p = curve.evals_by_depth[curve.evals_by_depth.length - 1];
  if (!p) return '';
  const e = p.eval;
  if (e.cp !== undefined) return `${(e.cp / 100).toFixed(2)} at depth ${p.depth}`;
  if (e.mate !== undefined) return `#${e.mate} at depth ${p.depth}`;
  return `${esc(JSON.stringify(e))} at depth ${p.depth}`;
}

function renderFortress(r) {
  const a = r.analysis || {};
  let html = `<div class="verdict" id="fo-verdict">Verdict: ${esc(r.verdict)}</div>`;
  if (r.explanation) html += `<div class="note">${esc(r.explanation)} — final eval ${esc(r.final_eval || '')}${r.verdict_depth ? `, stable from depth ${r.verdict_depth}` : ''}</div>`;
  html += plotSvg(r.curves || [], 'Evaluation by depth (cp, White\'s view)');
  const ev = a.evidence;
  if (ev) {
    html += '<h3>Evidence</h3><table class="evidence"><tbody>' + [
      ['side ahead', ev.ahead || 'nobody'], ['material (W−B)', ev.material], ['depths judged', `${ev.window_from}–${ev.final_depth}`],
      ['advantage', pawns(ev.advantage)], ['range', pawns(ev.range)], ['rise', pawns(ev.rise)],
      ['spread of the top moves', `${pawns(ev.spread)} (${ev.moves_compared} moves)`], ['mate', ev.mate ?? '—'], ['draw run', ev.draw_run], ['rule', ev.reason],
    ].map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('') + '</tbody></table>';
  }
  if (a.breakthrough_searched) {
    const bs = a.breakthroughs || [];
    // Only the first `candidates_checked` candidates have their replies followed.
    const checked = Math.min(bs.length, (a.config && a.config.candidates_checked) || 0);
    const replies = checked === 0 ? 'replies not followed' : checked === bs.length ? (bs.length === 1 ? 'its replies followed' : 'the replies to each followed') : `the replies to the first ${checked} followed`;
    html += `<h3>Breakthrough candidates</h3><div class="note">${bs.length ? `${bs.length} candidate${bs.length === 1 ? '' : 's'}; ${replies}` : 'no move breaks the fortress'}</div>`;
    if (bs.length) {
      html += '<table class="breakthroughs"><thead><tr><th>move</th><th>last eval</th><th>overtakes</th><th>replies rise</th></tr></thead><tbody>' +
        bs.map((b) => `<tr><td>${esc(b.curve.san)}</td><td>${lastEval(b.curve)}</td><td>${b.overtakes ? 'yes' : 'no'}</td><td>${b.replies_rise === null || b.replies_rise === undefined ? '—' : b.replies_rise ? 'yes' : 'no'}</td></tr>`).join('') +
        '</tbody></table>';
    }
  }
  // The detector's own plot (drawn by the fortress crate) as an image: no markup from it enters the page.
  if (r.svg) html += `<details><summary>detector's plot</summary><img class="plot" alt="fortress plot" src="data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(r.svg)))}"></details>`;
  return html;
}

/** Wires the panels; `ctx` gives the position shown (`fen()`), a way to play moves (`playUci`). */
export function setupTools(ctx) {
  let solved = null;
  $('sv-solve').onclick = async () => {
    const out = $('sv-out');
    const timeout = Math.min(+$('sv-time').value * 1000, (LIMITS.solve_ms || [1, 120000])[1]);
    // Each finished iteration (solution length) is shown as it comes; the report follows.
    let prefix = '#';
    const rows = [];
    const r = await longJob('sv', '/solve', { fen: ctx.fen(), stipulation: $('sv-stip').value, all_defences: $('sv-tree').checked, threats: $('sv-threats').checked, timeout_ms: timeout }, out, (ev, d) => {
      if (ev === 'start') prefix = d.stipulation.replace(/\d+$/, '');
      if (ev !== 'iteration') return '';
      rows.push(d);
      out.innerHTML = solverIterations(prefix, rows);
      return `${prefix}${d.moves} ${d.found ? 'solved' : 'tried'}`;
    });
    if (!r) return;
    solved = r;
    out.innerHTML = renderSolver(r) + (rows.length ? `<details open><summary>iterations</summary>${solverIterations(prefix, rows)}</details>` : '');
  };
  $('sv-out').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-key]');
    if (b && solved) ctx.playUci(solved.keys[+b.dataset.key].main_line);
  });

  let tbCtl = null;
  async function probe() {
    if (tbCtl) tbCtl.abort();
    const ctl = new AbortController();
    tbCtl = ctl;
    const out = $('tb-out');
    out.innerHTML = '<span class="note">probing…</span>';
    try {
      const r = await api('/tb/probe', { fen: ctx.fen() }, ctl.signal);
      if (tbCtl === ctl) out.innerHTML = renderTablebase(r);
    } catch (e) {
      if (tbCtl === ctl && e.name !== 'AbortError') out.innerHTML = `<span class="err">${esc(e.message)}</span>`;
    }
  }
  $('tb-probe').onclick = probe;
  $('tb-out').addEventListener('click', (e) => {
    const tr = e.target.closest('tr[data-uci]');
    if (tr) ctx.playUci([tr.dataset.uci]);
  });

  $('fo-run').onclick = async () => {
    const out = $('fo-out');
    // The detector's stages are shown as they come: each depth of the main search, then the
    // progress test and breakthrough steps; the curves and the verdict follow.
    const stages = [];
    const r = await longJob('fo', '/fortress', { fen: ctx.fen(), max_depth: +$('fo-depth').value, moves: +$('fo-moves').value, breakthrough: $('fo-break').checked }, out, (ev, d) => {
      if (ev !== 'progress') return '';
      stages.push(d);
      out.innerHTML = fortressLog(stages);
      return fortressStage(d);
    });
    if (r) out.innerHTML = renderFortress(r) + (stages.length ? `<details><summary>progress (${stages.length} steps)</summary>${fortressLog(stages)}</details>` : '');
  };

  return {
    /** A new position: earlier results are cleared; the tablebase panel, when shown, probes it. */
    positionChanged(tablebaseShown) {
      for (const id of ['sv-out', 'fo-out', 'prog-mate-out']) $(id).innerHTML = '';
      for (const id of ['sv', 'fo']) if ($(`${id}-cancel`).hidden) $(`${id}-progress`).textContent = '';
      $('tb-out').innerHTML = '';
      if (tablebaseShown && ctx.tablebase()) probe();
    },
    /** The tablebase tab was opened. */
    tablebaseShown() { if (ctx.tablebase()) probe(); },
    /** What `/api/info` says about the tables. */
    info(i) {
      const corrupt = (i.features.tablebase_corrupt || []).map((c) => `${c.ending} (corrupt: ${c.reason})`);
      $('tb-avail').textContent = i.features.tablebase
        ? `endings: ${(i.features.tablebase_endings || []).join(', ')}${corrupt.length ? `; not usable: ${corrupt.join(', ')}` : ''}`
        : 'no tablebases loaded (start the server with --tb-dir DIR)';
    },
  };
}
