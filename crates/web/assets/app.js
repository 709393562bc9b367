// Bastion web app: plain JavaScript, no framework, no external assets.
// All chess rules come from the server's JSON API; this file only draws and asks.
'use strict';

// ---------- API ----------
async function api(path, body) {
  const opts = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const r = await fetch('/api' + path, opts);
  let j;
  try { j = await r.json(); } catch (_) { j = { error: r.status + ' ' + r.statusText }; }
  if (!r.ok) throw new Error(j.error || (r.status + ' ' + r.statusText));
  return j;
}
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

// ---------- pieces (own simple glyphs, 45x45) ----------
const SHAPES = {
  p: '<circle cx="22.5" cy="13" r="5.5"/><path d="M17.5 20h10l3.5 13h-17z"/><rect x="11" y="33" width="23" height="5" rx="1.5"/>',
  r: '<path d="M12 9h4.5v3.5h4V9h4v3.5h4V9H33v8H12z"/><path d="M15 17h15v16H15z"/><rect x="11" y="33" width="23" height="5" rx="1.5"/>',
  n: '<path d="M14 33c0-7 4-10 6.5-13.5l-5 1.5-3.5 3.5-2.5-3c1.5-5 5-9.5 9-11.5l1.5-4 2.5 3.5c7 1.5 10.5 8 10.5 18.5V33z"/><circle class="d" cx="19" cy="15" r="1.4"/><rect x="11" y="33" width="23" height="5" rx="1.5"/>',
  b: '<circle cx="22.5" cy="7.5" r="2.6"/><path d="M22.5 10.5c-6 5-8.5 10-6 17.5h12c2.5-7.5 0-12.5-6-17.5z"/><path class="d" d="M22.5 15v8M18.5 19h8" fill="none"/><rect x="15.5" y="28" width="14" height="5"/><rect x="11" y="33" width="23" height="5" rx="1.5"/>',
  q: '<path d="M12.5 33 10 13l6.5 10.5L18 10l4.5 12.5L27 10l1.5 13.5L35 13l-2.5 20z"/><circle cx="10" cy="12" r="2.2"/><circle cx="18" cy="9" r="2.2"/><circle cx="27" cy="9" r="2.2"/><circle cx="35" cy="12" r="2.2"/><rect x="11" y="33" width="23" height="5" rx="1.5"/>',
  k: '<path d="M21 4h3v4h3.5v3H24v5h-3v-5h-3.5V8H21z"/><path d="M13 33c-4-8 0-15 9.5-12 9.5-3 13.5 4 9.5 12z"/><rect x="11" y="33" width="23" height="5" rx="1.5"/>',
};
function pieceSvg(ch) {
  const white = ch === ch.toUpperCase();
  const fill = white ? '#fdfdfd' : '#2a2a2a';
  const stroke = white ? '#1e1e1e' : '#000';
  const detail = white ? '#1e1e1e' : '#e8e8e8';
  return `<svg viewBox="0 0 45 45" xmlns="http://www.w3.org/2000/svg" class="piece" data-piece="${ch}">` +
    `<style>.d{stroke:${detail};fill:${detail}}</style>` +
    `<g fill="${fill}" stroke="${stroke}" stroke-width="1.5" stroke-linejoin="round">${SHAPES[ch.toLowerCase()]}</g></svg>`;
}

// ---------- board ----------
const FILES = 'abcdefgh';
function parseBoard(fen) {
  const rows = fen.split(' ')[0].split('/');
  const map = {};
  rows.forEach((row, i) => {
    let f = 0;
    for (const c of row) {
      if (/\d/.test(c)) f += +c; else { map[FILES[f] + (8 - i)] = c; f++; }
    }
  });
  return map;
}

class Board {
  constructor(el) {
    this.el = el; this.flipped = false; this.fen = START_FEN; this.legal = []; this.last = null;
    this.sel = null; this.drag = null; this.onMove = null; this.interactive = true; this.check = null;
    el.addEventListener('pointerdown', (e) => this.down(e));
    window.addEventListener('pointermove', (e) => this.move(e));
    window.addEventListener('pointerup', (e) => this.up(e));
    window.addEventListener('pointercancel', () => this.cancelDrag());
    this.render();
  }
  set(fen, legal, last, check) { this.fen = fen; this.legal = legal || []; this.last = last || null; this.check = check || null; this.sel = null; this.render(); }
  squareAt(x, y) {
    const r = this.el.getBoundingClientRect();
    if (x < r.left || y < r.top || x >= r.right || y >= r.bottom) return null;
    let c = Math.floor((x - r.left) / (r.width / 8)), row = Math.floor((y - r.top) / (r.height / 8));
    if (this.flipped) { c = 7 - c; row = 7 - row; }
    return FILES[c] + (8 - row);
  }
  targets(from) { return this.legal.filter((m) => m.from === from); }
  render() {
    const pieces = parseBoard(this.fen);
    this.pieces = pieces;
    const hints = this.sel ? this.targets(this.sel) : [];
    let html = '';
    for (let i = 0; i < 64; i++) {
      let row = Math.floor(i / 8), col = i % 8;
      if (this.flipped) { row = 7 - row; col = 7 - col; }
      const sq = FILES[col] + (8 - row);
      const light = (row + col) % 2 === 0;
      const cls = ['sq', light ? 'l' : 'd'];
      if (this.last && (this.last.slice(0, 2) === sq || this.last.slice(2, 4) === sq)) cls.push('last');
      if (this.sel === sq) cls.push('sel');
      if (this.check === sq) cls.push('check');
      let inner = '';
      const p = pieces[sq];
      if (p && !(this.drag && this.drag.moved && this.drag.from === sq)) inner += pieceSvg(p);
      if (hints.some((m) => m.to === sq)) inner += `<div class="hint${pieces[sq] ? ' cap' : ''}"></div>`;
      const vr = this.flipped ? 7 - row : row, vc = this.flipped ? 7 - col : col;
      if (vr === 7) inner += `<span class="coord file">${FILES[col]}</span>`;
      if (vc === 0) inner += `<span class="coord rank">${8 - row}</span>`;
      html += `<div class="${cls.join(' ')}" data-sq="${sq}">${inner}</div>`;
    }
    this.el.innerHTML = html;
    // White's share of the evaluation bar sits on White's side of the board.
    $('evalbar').classList.toggle('flipped', this.flipped);
  }
  ownPiece(sq) { return this.targets(sq).length > 0; }
  down(e) {
    if (!this.interactive || e.button > 0) return;
    const sq = this.squareAt(e.clientX, e.clientY);
    if (!sq) return;
    e.preventDefault();
    if (this.sel && this.sel !== sq && this.targets(this.sel).some((m) => m.to === sq)) {
      const from = this.sel; this.sel = null; this.tryMove(from, sq); return;
    }
    if (this.ownPiece(sq)) {
      this.sel = sq;
      this.drag = { from: sq, x: e.clientX, y: e.clientY, moved: false, ghost: null };
      this.render();
    } else { this.sel = null; this.render(); }
  }
  move(e) {
    const d = this.drag;
    if (!d) return;
    if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 4) return;
    if (!d.moved) {
      d.moved = true;
      const size = this.el.getBoundingClientRect().width / 8;
      d.ghost = document.createElement('div');
      d.ghost.className = 'dragpiece';
      d.ghost.style.width = d.ghost.style.height = size + 'px';
      d.ghost.innerHTML = pieceSvg(this.pieces[d.from]);
      document.body.appendChild(d.ghost);
      d.size = size;
      this.render();
    }
    d.ghost.style.left = (e.clientX - d.size / 2) + 'px';
    d.ghost.style.top = (e.clientY - d.size / 2) + 'px';
  }
  up(e) {
    const d = this.drag;
    if (!d) return;
    this.cancelDrag();
    if (!d.moved) return; // a click: keep the selection for a second click
    const to = this.squareAt(e.clientX, e.clientY);
    if (to && to !== d.from && this.targets(d.from).some((m) => m.to === to)) { this.sel = null; this.tryMove(d.from, to); }
    else this.render();
  }
  cancelDrag() { if (this.drag && this.drag.ghost) this.drag.ghost.remove(); const had = this.drag && this.drag.moved; this.drag = null; if (had) this.render(); }
  async tryMove(from, to) {
    const cands = this.legal.filter((m) => m.from === from && m.to === to);
    if (!cands.length) { this.render(); return; }
    let mv = cands[0];
    if (cands.length > 1 && cands[0].promotion) {
      const white = this.pieces[from] === 'P';
      const role = await choosePromotion(white, cands.map((m) => m.promotion));
      if (!role) { this.render(); return; }
      mv = cands.find((m) => m.promotion === role);
    }
    // Show the move at once; the server's answer redraws.
    const p = this.pieces; p[to] = p[from]; delete p[from];
    if (this.onMove) this.onMove(mv.uci);
  }
}

function choosePromotion(white, roles) {
  return new Promise((resolve) => {
    const box = $('promo-choices');
    box.innerHTML = '';
    for (const r of ['q', 'r', 'b', 'n'].filter((x) => roles.includes(x))) {
      const b = document.createElement('button');
      b.dataset.role = r; b.title = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' }[r];
      b.innerHTML = pieceSvg(white ? r.toUpperCase() : r);
      b.onclick = () => { $('promo').hidden = true; resolve(r); };
      box.appendChild(b);
    }
    $('promo').onclick = (e) => { if (e.target.id === 'promo') { $('promo').hidden = true; resolve(null); } };
    $('promo').hidden = false;
  });
}

// ---------- app state ----------
const board = new Board($('board'));
const S = {
  variant: 'standard', startFen: START_FEN, plies: [], cursor: 0, outcome: null, legalAtEnd: [], turn: 'white',
  play: null,       // {human: 'w'|'b'|'none'} when playing against the engine / computer
  selfplay: false, busy: false, tab: 'game', gen: 0,
  prog: null,       // Progressive: last server state
};

function setStatus(text, err) { const s = $('status'); s.textContent = text || ''; s.className = err ? 'err' : ''; }
function showError(e) { setStatus(e.message || String(e), true); }
function uciList(n) { return S.plies.slice(0, n === undefined ? S.cursor : n).map((p) => p.uci); }
function currentFen() { return S.cursor === 0 ? S.startFen : S.plies[S.cursor - 1].fen; }
function sideOf(fen) { return fen.split(' ')[1]; }
function kingSquare(fen, color) { const m = parseBoard(fen); for (const sq in m) if (m[sq] === (color === 'w' ? 'K' : 'k')) return sq; return null; }

// Re-reads the whole line from the server (repetition-aware outcome, SAN, legal moves).
async function loadLine(startFen, moves) {
  if (S.variant === 'progressive') return progLoad(startFen, moves);
  const g = await api('/game', { start_fen: startFen, moves });
  S.startFen = g.start_fen; S.plies = g.plies; S.cursor = g.plies.length;
  S.outcome = g.outcome; S.legalAtEnd = g.legal; S.turn = g.turn; S.inCheck = g.in_check;
  await show();
}

async function show() {
  const gen = ++S.gen;
  const fen = currentFen();
  let legal = S.legalAtEnd, inCheck = S.inCheck;
  if (S.variant === 'standard' && S.cursor !== S.plies.length) {
    const l = await api('/legal', { fen });
    if (gen !== S.gen) return;
    legal = l.moves; inCheck = l.in_check;
  }
  if (S.variant === 'progressive' && S.cursor !== S.plies.length) { legal = []; inCheck = false; }
  const atEnd = S.cursor === S.plies.length;
  const humanTurn = !S.selfplay && !S.busy && (!S.play || S.play.human === 'none' || S.play.human === sideOf(fen));
  board.interactive = humanTurn && (atEnd || !S.play) && !(atEnd && S.outcome);
  const last = S.cursor > 0 ? S.plies[S.cursor - 1].uci : null;
  board.set(fen, board.interactive ? legal : [], last, inCheck ? kingSquare(fen, sideOf(fen)) : null);
  $('fen').value = fen;
  renderMoves();
  if (S.outcome && atEnd) setStatus(`Game over: ${S.outcome.result} (${S.outcome.reason})`);
  else if (S.busy) setStatus(S.variant === 'progressive' ? 'Computer is thinking…' : 'Engine is thinking…');
  else setStatus((sideOf(fen) === 'w' ? 'White' : 'Black') + ' to move' + (inCheck ? ' (check)' : '') + (S.variant === 'progressive' && S.prog ? progSeriesText() : ''));
  onPositionShown();
}

function renderMoves() {
  const el = $('moves');
  if (S.variant === 'progressive') return renderProgMoves();
  el.className = '';
  let html = '';
  const blackFirst = sideOf(S.startFen) === 'b';
  let num = +S.startFen.split(' ')[5] || 1;
  const cells = [];
  if (blackFirst) cells.push(null);
  S.plies.forEach((p, i) => cells.push({ san: p.san, idx: i + 1 }));
  for (let i = 0; i < cells.length; i += 2) {
    html += `<span class="num">${num}.</span>`;
    for (const c of [cells[i], cells[i + 1]]) {
      html += c ? `<span class="mv${c.idx === S.cursor ? ' cur' : ''}" data-idx="${c.idx}">${esc(c.san)}</span>` : '<span>' + (c === null ? '…' : '') + '</span>';
    }
    num++;
  }
  el.innerHTML = html;
  const cur = el.querySelector('.cur');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}
$('moves').addEventListener('click', (e) => {
  const idx = e.target.dataset && e.target.dataset.idx;
  if (idx !== undefined) { S.cursor = +idx; show().catch(showError); }
});

// A move made on the board.
board.onMove = async (uci) => {
  try {
    if (S.variant === 'progressive') return await progUserMove(uci);
    await loadLine(S.startFen, [...uciList(), uci]);
    await maybeEngineMove();
  } catch (e) { showError(e); await show().catch(() => {}); }
};

// ---------- the server's limits (from /api/info; these defaults are the server's own) ----------
let LIMITS = {
  threads: [1, 1], multipv: [1, 8], movetime_ms: [1, 60000], depth: [1, 64], solve_moves: [1, 12],
  fortress_depth: [2, 30], fortress_moves: [1, 8], progressive_ms: [1, 30000],
};
const clamp = (v, [lo, hi]) => Math.max(lo, Math.min(hi, Math.round(+v || lo)));
function setRange(id, range) {
  const el = $(id);
  el.min = range[0]; el.max = range[1];
  if (el.value !== '') el.value = clamp(el.value, range);
}
// Every form's limits are the server's: the inputs say them and the requests keep to them.
function applyLimits() {
  setRange('an-multipv', LIMITS.multipv);
  setRange('an-threads', LIMITS.threads);
  setRange('levelval', $('levelkind').value === 'depth' ? LIMITS.depth : LIMITS.movetime_ms);
  setRange('fo-depth', LIMITS.fortress_depth);
  setRange('fo-moves', LIMITS.fortress_moves);
  setRange('prog-mate-time', [1, Math.max(1, Math.floor(LIMITS.progressive_ms[1] / 1000))]);
}
$('levelkind').onchange = applyLimits;

function level() {
  const kind = $('levelkind').value;
  return kind === 'depth' ? { depth: clamp($('levelval').value, LIMITS.depth) } : { movetime: clamp($('levelval').value, LIMITS.movetime_ms) };
}

async function engineMove() {
  S.busy = true; await show();
  try {
    const r = await api('/engine/bestmove', { fen: S.startFen, moves: uciList(), ...level() });
    S.busy = false;
    if (r.bestmove) await loadLine(S.startFen, [...uciList(), r.bestmove]);
  } finally { S.busy = false; }
}

async function maybeEngineMove() {
  if (!S.play || S.play.human === 'none' || S.outcome || S.cursor !== S.plies.length) return;
  if (sideOf(currentFen()) !== S.play.human) await engineMove();
  await show();
}

$('play-start').onclick = async () => {
  stopSelfplay();
  S.play = { human: $('side').value };
  board.flipped = S.play.human === 'b';
  try { await loadLine(S.startFen, uciList()); await maybeEngineMove(); } catch (e) { showError(e); }
};
$('side').onchange = () => { if (S.play) $('play-start').onclick(); };
$('selfplay').onclick = async () => {
  if (S.selfplay) return;
  S.selfplay = true; S.play = null;
  try {
    await loadLine(S.startFen, uciList());
    while (S.selfplay && !S.outcome) { await engineMove(); await show(); }
  } catch (e) { showError(e); }
  S.selfplay = false; await show().catch(() => {});
};
function stopSelfplay() { S.selfplay = false; if (S.prog) S.progSelf = false; }
$('selfplay-stop').onclick = () => { stopSelfplay(); S.play = null; show().catch(() => {}); };

$('newgame').onclick = async () => {
  stopSelfplay(); S.play = null; closeAnalysis();
  try { await loadLine(S.variant === 'progressive' ? START_FEN : START_FEN, []); } catch (e) { showError(e); }
};
$('flip').onclick = () => { board.flipped = !board.flipped; board.render(); };
const nav = (f) => () => { S.cursor = Math.max(0, Math.min(S.plies.length, f(S.cursor))); show().catch(showError); };
$('nav-first').onclick = nav(() => 0);
$('nav-prev').onclick = nav((c) => c - 1);
$('nav-next').onclick = nav((c) => c + 1);
$('nav-last').onclick = nav(() => Infinity);
document.addEventListener('keydown', (e) => {
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName)) return;
  if (e.key === 'ArrowLeft') $('nav-prev').onclick(); else if (e.key === 'ArrowRight') $('nav-next').onclick();
});

$('fen-load').onclick = async () => {
  stopSelfplay(); S.play = null;
  try { await loadLine($('fen').value.trim(), []); } catch (e) { showError(e); }
};

// ---------- PGN and files ----------
async function exportPgn() {
  if (S.variant === 'progressive') {
    const r = await api('/progressive/record', progBody({}));
    return r.record;
  }
  const headers = [['Site', 'Bastion web app'], ['Date', new Date().toISOString().slice(0, 10).replace(/-/g, '.')]];
  if (S.play && S.play.human !== 'none') {
    headers.push(['White', S.play.human === 'w' ? 'Human' : 'Bastion'], ['Black', S.play.human === 'b' ? 'Human' : 'Bastion']);
  }
  return (await api('/pgn/export', { start_fen: S.startFen, moves: S.plies.map((p) => p.uci), headers })).pgn;
}
async function importPgn(text) {
  stopSelfplay(); S.play = null;
  if (S.variant === 'progressive') {
    const r = await api('/progressive/game', { record: text });
    return progApply(r);
  }
  const g = await api('/pgn/import', { pgn: text });
  await loadLine(g.start_fen, g.plies.map((p) => p.uci));
}
$('pgn-export').onclick = async () => { try { $('pgn').value = await exportPgn(); } catch (e) { showError(e); } };
$('pgn-import').onclick = async () => { try { await importPgn($('pgn').value); } catch (e) { showError(e); } };
$('pgn-save').onclick = async () => {
  try {
    const text = await exportPgn();
    $('pgn').value = text;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
    a.download = S.variant === 'progressive' ? 'progressive-game.txt' : 'bastion-game.pgn';
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (e) { showError(e); }
};
$('pgn-file').onchange = async (e) => {
  const f = e.target.files[0];
  if (!f) return;
  try { const text = await f.text(); $('pgn').value = text; await importPgn(text); } catch (err) { showError(err); }
  e.target.value = '';
};

// ---------- tabs ----------
document.querySelectorAll('#tabs button').forEach((b) => {
  b.onclick = () => {
    document.querySelectorAll('#tabs button').forEach((x) => x.classList.toggle('active', x === b));
    S.tab = b.dataset.tab;
    for (const t of ['game', 'analysis', 'solver', 'tablebase', 'fortress']) $('panel-' + t).hidden = t !== S.tab;
    if (S.tab !== 'analysis') closeAnalysis();
  };
});

// ---------- analysis (server-sent events, read with fetch so that errors can be read too) ----------
let source = null; // {abort} of the running analysis
const anLines = {};
function closeAnalysis() { if (source) { source.abort(); source = null; $('an-info').textContent = 'stopped'; } }
function anError(text) { $('an-info').innerHTML = `<span class="err">${esc(text)}</span>`; }

// Reads `event:`/`data:` blocks of a text/event-stream response, calling on(event, data) for each.
async function readEvents(resp, on) {
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
function scoreText(s, whiteView) {
  if (s.mate !== undefined) return (s.mate * whiteView > 0 ? '#' : '#-') + Math.abs(s.mate);
  const v = s.cp * whiteView / 100;
  return (v > 0 ? '+' : '') + v.toFixed(2);
}
function setEvalBar(s, whiteView) {
  let frac;
  if (s.mate !== undefined) frac = s.mate * whiteView > 0 ? 1 : 0;
  else frac = 1 / (1 + Math.exp(-(s.cp * whiteView) / 250));
  $('evalfill').style.height = (frac * 100).toFixed(1) + '%';
  $('evaltext').textContent = scoreText(s, whiteView);
}
function startAnalysis() {
  closeAnalysis();
  if (S.variant !== 'standard') { $('an-info').textContent = 'analysis is for standard chess'; return; }
  const fen = currentFen();
  const whiteView = sideOf(fen) === 'w' ? 1 : -1;
  const q = new URLSearchParams({ fen: S.startFen, moves: uciList().join(','), multipv: $('an-multipv').value, threads: $('an-threads').value });
  for (const k in anLines) delete anLines[k];
  $('an-lines').tBodies[0].innerHTML = '';
  $('an-info').textContent = 'starting…';
  const ctl = new AbortController();
  const me = { abort: () => ctl.abort() };
  source = me;
  const onInfo = (i) => {
    anLines[i.multipv] = i;
    if (i.multipv === 1) setEvalBar(i.score, whiteView);
    $('an-info').textContent = `depth ${i.depth}/${i.seldepth}  nodes ${i.nodes.toLocaleString()}  ${Math.round(i.nps / 1000)} kn/s  ${(i.time_ms / 1000).toFixed(1)} s`;
    const rows = Object.keys(anLines).sort((a, b) => a - b).map((k) => {
      const l = anLines[k];
      return `<tr><td>${l.multipv}</td><td>${scoreText(l.score, whiteView)}${l.bound !== 'exact' ? (l.bound === 'lower' ? '+' : '−') : ''}</td><td>${l.depth}</td><td class="line">${esc(l.pv_san.join(' '))}</td></tr>`;
    });
    $('an-lines').tBodies[0].innerHTML = rows.join('');
  };
  (async () => {
    const r = await fetch('/api/analyse?' + q, { signal: ctl.signal, headers: { Accept: 'text/event-stream' } });
    if (!r.ok) {
      // The server's own words: a mated position, too many threads, a bad FEN, a busy server...
      let msg;
      try { msg = (await r.json()).error; } catch (_) { msg = null; }
      throw new Error(msg || `${r.status} ${r.statusText}`);
    }
    let finished = false;
    await readEvents(r, (ev, data) => {
      if (source !== me) return;
      if (ev === 'info') onInfo(JSON.parse(data));
      else if (ev === 'error') throw new Error(JSON.parse(data).error);
      else if (ev === 'done') {
        const d = JSON.parse(data);
        finished = true;
        $('an-info').textContent += `  — finished: best ${d.san || '-'}`;
      }
    });
    if (!finished && source === me) throw new Error('the analysis connection closed before the search finished');
  })().catch((e) => {
    if (source === me && e.name !== 'AbortError') anError(e.message || String(e));
  }).finally(() => { if (source === me) source = null; });
}
$('an-start').onclick = startAnalysis;
$('an-stop').onclick = closeAnalysis;
function resetEvalBar() { $('evalfill').style.height = '50%'; $('evaltext').textContent = ''; }
let shownFen = null;
function onPositionShown() {
  const fen = currentFen();
  if (fen === shownFen) return;
  shownFen = fen;
  // Results of the panels belong to the position they were asked for.
  for (const id of ['sv-out', 'tb-out', 'fo-out', 'prog-mate-out']) $(id).innerHTML = '';
  if (source) startAnalysis(); // follow the board
  else resetEvalBar();
}

// ---------- mate solver ----------
function nodeHtml(n, depth) {
  const kids = (n.children || []).map((c) => nodeHtml(c, depth + 1)).join('');
  return kids ? `<details${depth < 1 ? ' open' : ''}><summary>${esc(n.san)}</summary>${kids}</details>` : `<div>${esc(n.san)}</div>`;
}
$('sv-solve').onclick = async () => {
  const out = $('sv-out');
  out.innerHTML = 'solving…';
  const t0 = performance.now();
  try {
    const r = await api('/solve', { fen: currentFen(), stipulation: $('sv-stip').value, all_defences: $('sv-tree').checked, threats: $('sv-threats').checked });
    let html = `<div class="verdict">${r.status === 'solved' ? 'Solved' : 'No solution'}: ${esc(r.stipulation)}</div>`;
    html += `<div class="note">${r.keys.length || r.lines.length} solution(s), ${r.nodes.toLocaleString()} nodes, ${((performance.now() - t0) / 1000).toFixed(2)} s</div>`;
    for (const k of r.keys) {
      html += `<div class="key"><b>Key ${esc(k.san)}</b> (mate in ${k.moves})${k.threat ? ' — threat: ' + esc(k.threat) : ''}<div class="line">${esc(k.main_line_text)}</div>`;
      if (k.defences.length) html += '<details><summary>defences</summary>' + k.defences.map((d) => nodeHtml(d, 1)).join('') + '</details>';
      html += '</div>';
    }
    for (const l of r.lines) html += `<div class="line">${esc(l)}</div>`;
    out.innerHTML = html;
  } catch (e) { out.innerHTML = `<span class="err">${esc(e.message)}</span>`; }
};

// ---------- tablebase ----------
$('tb-probe').onclick = async () => {
  const out = $('tb-out');
  out.innerHTML = 'probing…';
  try {
    const r = await api('/tb/probe', { fen: currentFen() });
    let html = `<div class="verdict">${esc(r.value_text || r.wdl)}</div>`;
    if (r.line_san && r.line_san.length) html += `<div class="note">optimal line: <span class="line">${esc(r.line_san.join(' '))}</span></div>`;
    html += '<table><thead><tr><th>move</th><th>value</th><th>DTM</th></tr></thead><tbody>';
    for (const m of r.moves) html += `<tr class="${m.wdl}"><td>${esc(m.san)}</td><td class="val">${esc(m.wdl)}</td><td>${m.dtm === null ? '' : m.dtm}</td></tr>`;
    out.innerHTML = html + '</tbody></table>';
  } catch (e) { out.innerHTML = `<span class="err">${esc(e.message)}</span>`; }
};

// ---------- fortress ----------
function plotSvg(curves, title) {
  const W = 560, H = 300, L = 50, R = 10, T = 24, B = 36;
  const pts = curves.flatMap((c) => c.points);
  if (!pts.length) return '<div class="note">no data points</div>';
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const x0 = Math.min(...xs), x1 = Math.max(...xs, x0 + 1);
  let y0 = Math.min(...ys, 0), y1 = Math.max(...ys, 0);
  if (y1 - y0 < 50) { y1 += 25; y0 -= 25; }
  const X = (x) => L + (x - x0) / (x1 - x0) * (W - L - R), Y = (y) => T + (y1 - y) / (y1 - y0) * (H - T - B);
  const colors = ['#2f6fb3', '#c0392b', '#27ae60', '#8e44ad', '#d35400', '#16a085'];
  let s = `<svg class="plot" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" font-size="11">`;
  s += `<text x="${W / 2}" y="15" text-anchor="middle" font-weight="700">${esc(title)}</text>`;
  s += `<line x1="${L}" y1="${Y(0)}" x2="${W - R}" y2="${Y(0)}" stroke="#999" stroke-dasharray="4 3"/>`;
  s += `<line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="#333"/><line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="#333"/>`;
  for (let i = 0; i <= 4; i++) { const v = y0 + (y1 - y0) * i / 4; s += `<text x="${L - 4}" y="${Y(v) + 4}" text-anchor="end">${Math.round(v)}</text>`; }
  const step = Math.max(1, Math.ceil((x1 - x0) / 10));
  for (let x = x0; x <= x1; x += step) s += `<text x="${X(x)}" y="${H - B + 14}" text-anchor="middle">${x}</text>`;
  s += `<text x="${(L + W - R) / 2}" y="${H - 4}" text-anchor="middle">depth</text>`;
  curves.forEach((c, i) => {
    const col = colors[i % colors.length];
    s += `<polyline fill="none" stroke="${col}" stroke-width="2" points="${c.points.map((p) => X(p[0]).toFixed(1) + ',' + Y(p[1]).toFixed(1)).join(' ')}"/>`;
    for (const p of c.points) s += `<circle cx="${X(p[0]).toFixed(1)}" cy="${Y(p[1]).toFixed(1)}" r="2.5" fill="${col}"/>`;
    s += `<text x="${L + 8}" y="${T + 12 + 13 * i}" fill="${col}">${esc(c.label)}</text>`;
  });
  return s + '</svg>';
}
$('fo-run').onclick = async () => {
  const out = $('fo-out');
  out.innerHTML = 'running the detector…';
  try {
    const r = await api('/fortress', { fen: currentFen(), max_depth: +$('fo-depth').value, moves: +$('fo-moves').value, breakthrough: $('fo-break').checked });
    let html = `<div class="verdict" id="fo-verdict">Verdict: ${esc(r.verdict)}</div>`;
    if (r.explanation) html += `<div class="note">${esc(r.explanation)} — final eval ${esc(r.final_eval || '')}${r.verdict_depth ? ', stable from depth ' + r.verdict_depth : ''}</div>`;
    html += plotSvg(r.curves || [], 'evaluation by depth (centipawns, White\'s view)');
    // The detector's own plot (drawn by the fortress crate) as an image: no markup from it enters the page.
    if (r.svg) html += `<details><summary>detector's plot</summary><img class="plot" alt="fortress plot" src="data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(r.svg)))}"></details>`;
    out.innerHTML = html;
  } catch (e) { out.innerHTML = `<span class="err">${esc(e.message)}</span>`; }
};

// ---------- Progressive chess ----------
function progBody(extra) { return { start_fen: S.startFen, rules: $('prog-rules').value, moves: S.plies.map((p) => p.uci), ...extra }; }
function progSeriesText() {
  const p = S.prog;
  return p && !p.result ? ` — series ${p.turn}: move ${p.played + 1} of ${p.series_len}` : '';
}
async function progLoad(startFen, moves) {
  const r = await api('/progressive/game', { start_fen: startFen, rules: $('prog-rules').value, moves });
  await progApply(r);
}
async function progApply(r) {
  S.prog = r; S.startFen = r.start_fen; S.plies = r.plies; S.cursor = r.plies.length;
  S.legalAtEnd = r.legal; S.inCheck = r.in_check;
  S.outcome = r.result ? { result: r.result.result, reason: r.result.reason } : null;
  $('prog-series').textContent = r.result ? '' : `${r.side === 'w' ? 'White' : 'Black'} plays a series of ${r.series_len}; ${r.played} played.`;
  await show();
}
function renderProgMoves() {
  const el = $('moves');
  el.className = 'prog';
  const turns = (S.prog && S.prog.turns) || [];
  let idx = 0, html = '';
  turns.forEach((t, i) => {
    html += `<div class="turn"><span class="num">${i + 1}.</span> ` + t.map((m) => { idx++; return `<span class="mv${idx === S.cursor ? ' cur' : ''}" data-idx="${idx}">${esc(m)}</span>`; }).join(' ') + '</div>';
  });
  el.innerHTML = html;
}
async function progComputer() {
  S.busy = true; await show();
  try {
    const r = await api('/progressive/computer', progBody({}));
    S.busy = false;
    await progLoad(S.startFen, [...S.plies.map((p) => p.uci), ...r.series]);
  } finally { S.busy = false; }
}
async function progMaybeComputer() {
  if (!S.play || S.play.human === 'none' || !S.prog || S.prog.result) return;
  if (S.prog.side !== S.play.human) await progComputer();
  await show();
}
async function progUserMove(uci) {
  await progLoad(S.startFen, [...S.plies.map((p) => p.uci), uci]);
  await progMaybeComputer();
}
$('prog-start').onclick = async () => {
  stopSelfplay(); S.play = { human: $('prog-side').value };
  board.flipped = S.play.human === 'b';
  try { await progLoad(S.startFen, S.plies.map((p) => p.uci)); await progMaybeComputer(); } catch (e) { showError(e); }
};
$('prog-selfplay').onclick = async () => {
  if (S.selfplay) return;
  S.selfplay = true; S.play = null;
  try { while (S.selfplay && S.prog && !S.prog.result) { await progComputer(); } } catch (e) { showError(e); }
  S.selfplay = false; await show().catch(() => {});
};
$('prog-stop').onclick = () => { stopSelfplay(); S.play = null; show().catch(() => {}); };
$('prog-rules').onchange = () => { if (S.variant === 'progressive') $('newgame').onclick(); };
$('prog-mate').onclick = async () => {
  const out = $('prog-mate-out');
  out.innerHTML = 'searching…';
  try {
    const secs = clamp($('prog-mate-time').value || 5, [1, Math.max(1, Math.floor(LIMITS.progressive_ms[1] / 1000))]);
    const r = await api('/progressive/mate', progBody({ time_ms: secs * 1000 }));
    if (r.found) {
      out.innerHTML = `<b>Mate:</b> <span class="line">${esc(r.series_text)}</span> <span class="note">(${r.nodes.toLocaleString()} nodes, ${r.elapsed_ms} ms)</span> <button id="prog-mate-play">Play it</button>`;
      const base = S.plies.map((p) => p.uci);
      $('prog-mate-play').onclick = () => progLoad(S.startFen, [...base, ...r.series]).catch(showError);
    } else out.textContent = `No mate found in this series (${r.reason || ''}, ${r.nodes.toLocaleString()} nodes)`;
  } catch (e) { out.innerHTML = `<span class="err">${esc(e.message)}</span>`; }
};

$('variant').onchange = async () => {
  stopSelfplay(); S.play = null; closeAnalysis();
  S.variant = $('variant').value;
  $('std-play').hidden = S.variant !== 'standard';
  $('prog-play').hidden = S.variant !== 'progressive';
  // The engine's evaluation bar and the PGN format are for standard chess.
  $('evalbar').style.visibility = S.variant === 'progressive' ? 'hidden' : '';
  $('pgn-title').textContent = S.variant === 'progressive' ? 'Game record' : 'PGN';
  S.prog = null;
  try { await loadLine(START_FEN, []); } catch (e) { showError(e); }
};

// ---------- start ----------
loadLine(START_FEN, []).catch(showError);
api('/info').then((i) => {
  if (i.limits) { LIMITS = { ...LIMITS, ...i.limits }; applyLimits(); }
  for (const [k, on] of Object.entries(i.features)) {
    const b = document.querySelector(`#tabs button[data-tab="${k}"]`);
    if (b && !on) b.title = 'not available in this build';
  }
  const corrupt = (i.features.tablebase_corrupt || []).map((c) => `${c.ending} (corrupt: ${c.reason})`);
  $('tb-avail').textContent = i.features.tablebase
    ? 'endings: ' + (i.features.tablebase_endings || []).join(', ') + (corrupt.length ? '; not usable: ' + corrupt.join(', ') : '')
    : 'no tablebases loaded (start the server with --tb-dir DIR)';
  if (!i.features.progressive) $('variant').querySelector('[value="progressive"]').textContent += ' (not available)';
}).catch(() => {});
