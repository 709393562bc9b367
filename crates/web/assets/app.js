// Bastion web app: the analysis board. chessground draws the board, chessops knows the rules and
// PGN (both vendored, see vendor/VERSIONS.md); the server's JSON API does the engine work.
import { Chessground } from './assets/chessground.js';
import { parseSquare, compat, pgn as pgnLib } from './assets/chessops.js';
import * as T from './assets/tree.js';
import { api, $, esc, readEvents, scoreWhite, setupTools, setLimits } from './assets/tools.js';

// ---------- state ----------
const S = {
  variant: 'standard',
  tree: T.newTree(),
  cur: null,           // the node shown
  orientation: 'white',
  play: null,          // a game against the engine: {human, clock, over, gen}
  selfplay: false,
  busy: false,         // the engine is choosing a move for the game
  tab: 'play',
  editing: false,
  edTool: null,
  prog: null,          // Progressive: the server's last answer, with `cursor` into its plies
};
S.cur = S.tree.root;
let LIMITS = {
  threads: [1, 1], multipv: [1, 8], movetime_ms: [1, 60000], depth: [1, 64], solve_ms: [1, 120000],
  fortress_depth: [2, 30], fortress_moves: [1, 8], progressive_ms: [1, 30000],
};
const clamp = (v, [lo, hi]) => Math.max(lo, Math.min(hi, Math.round(+v || lo)));
const colorName = (c) => (c === 'white' ? 'White' : 'Black');
const other = (c) => (c === 'white' ? 'black' : 'white');

function setStatus(text, err) { const s = $('status'); s.textContent = text || ''; s.className = err ? 'err' : ''; }
function showError(e) { setStatus(e.message || String(e), true); }

// ---------- sound (WebAudio tones; no sound files) ----------
let audio = null;
function beep(freq, ms, delay = 0) {
  if (!$('sound').checked) return;
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator(), g = audio.createGain();
    const t = audio.currentTime + delay / 1000;
    o.frequency.value = freq; o.type = 'sine';
    g.gain.setValueAtTime(0.15, t); g.gain.exponentialRampToValueAtTime(0.001, t + ms / 1000);
    o.connect(g).connect(audio.destination); o.start(t); o.stop(t + ms / 1000);
  } catch (_) { /* no audio device: silent */ }
}
function moveSound(node) {
  if (!node || !node.san) return;
  if (node.san.includes('#')) { beep(660, 120); beep(880, 200, 130); } else if (node.san.includes('+')) beep(700, 90);
  else if (node.san.includes('x')) beep(330, 90); else beep(480, 60);
}

// ---------- board ----------
const cg = Chessground($('board'), {
  fen: S.cur.fen, orientation: 'white', coordinates: true,
  movable: { free: false, color: 'white', showDests: true, events: { after: (o, d, meta) => onBoardMove(o, d, meta) } },
  premovable: { enabled: true },
  draggable: { showGhost: true },
  animation: { enabled: true, duration: 200 },
  highlight: { lastMove: true, check: true },
  drawable: { enabled: true },
  events: { change: () => { if (S.editing) editorChanged(); } },
});

/** Whether the user may move on the board now, and for which colour (premoves while the engine thinks). */
function movableColor(pos) {
  if (S.selfplay) return undefined;
  if (S.play) {
    if (S.play.over || S.cur.children.length) return undefined;
    return S.play.human;
  }
  return T.outcomeOf(S.cur) ? undefined : pos.turn;
}

/** The board's place on the page changed (clocks shown or hidden): chessground measures it again. */
const boardMoved = () => cg.state.dom.bounds.clear();

function updateBoard() {
  boardMoved();
  if (S.variant === 'progressive') return progBoard();
  const pos = T.positionOf(S.cur.fen);
  const color = movableColor(pos);
  const uci = S.cur.uci;
  cg.set({
    fen: S.cur.fen, turnColor: pos.turn, orientation: S.orientation,
    check: pos.isCheck() ? pos.turn : false,
    lastMove: uci ? [uci.slice(0, 2), uci.slice(2, 4)] : undefined,
    movable: { free: false, color, dests: color === pos.turn ? compat.chessgroundDests(pos) : new Map() },
    premovable: { enabled: !!S.play },
    draggable: { deleteOnDropOff: false },
  });
  $('evalbar').classList.toggle('flipped', S.orientation === 'black');
}

function choosePromotion(color) {
  return new Promise((resolve) => {
    const box = $('promo-choices');
    box.innerHTML = '';
    for (const r of ['queen', 'knight', 'rook', 'bishop']) {
      const b = document.createElement('button');
      b.dataset.role = r[0] === 'k' ? 'n' : r[0]; b.title = r;
      b.innerHTML = `<piece class="${color} ${r}"></piece>`;
      b.onclick = () => { $('promo').hidden = true; resolve(r); };
      box.appendChild(b);
    }
    $('promo').onclick = (e) => { if (e.target.id === 'promo') { $('promo').hidden = true; resolve(null); } };
    $('promo').hidden = false;
  });
}

async function onBoardMove(orig, dest) {
  if (S.variant === 'progressive') return progUserMove(orig, dest).catch(showError);
  if (S.editing) return;
  const pos = T.positionOf(S.cur.fen);
  const from = parseSquare(orig), to = parseSquare(dest);
  const piece = pos.board.get(from);
  let promotion;
  if (piece && piece.role === 'pawn' && (dest[1] === '8' || dest[1] === '1')) {
    promotion = await choosePromotion(piece.color);
    if (!promotion) { updateBoard(); return; }
  }
  const node = T.addMove(S.cur, promotion ? { from, to, promotion } : { from, to });
  if (!node) { updateBoard(); return; }
  if (S.play) clockMoved(node);
  goto(node);
  moveSound(node);
  if (S.play) maybeEngineMove().catch(showError);
}

// ---------- showing a node ----------
let judgements = new Map();
function goto(node) {
  S.cur = node;
  render();
}

function render() {
  if (S.variant === 'progressive') return progRender();
  if (!S.editing) updateBoard();
  $('fen').value = S.cur.fen;
  renderMoves();
  renderStatus();
  renderGraph();
  onPositionChange();
  saveTree();
}

// ---------- the game tree kept across reloads (localStorage) ----------
// The tree is stored as its own PGN export (tags, comments, NAGs, variations: what import gives
// back unchanged), with the place of the move shown and the board's orientation.
const SAVE_KEY = 'bastion.tree.v1';
function forgetTree() { try { localStorage.removeItem(SAVE_KEY); } catch (_) { /* storage disabled */ } }
function saveTree() {
  if (S.variant !== 'standard') return;
  if (T.isBlank(S.tree)) { forgetTree(); return; }
  try {
    localStorage.setItem(SAVE_KEY, JSON.stringify({ pgn: T.exportPgn(S.tree), path: T.indexPath(S.cur), orientation: S.orientation }));
  } catch (_) { /* storage full or disabled: the page works without it */ }
}
/** The stored tree, if there is a sound one; anything else stored is dropped and ignored. */
function restoreTree() {
  let saved = null;
  try { saved = localStorage.getItem(SAVE_KEY); } catch (_) { return; }
  if (saved === null) return;
  try {
    const { pgn, path, orientation } = JSON.parse(saved);
    if (typeof pgn !== 'string') throw new Error('no PGN');
    const tree = T.importPgn(pgn);
    let node = tree.root;
    for (const i of Array.isArray(path) ? path : []) {
      if (!Number.isInteger(i) || !node.children[i]) break;
      node = node.children[i];
    }
    S.tree = tree; S.cur = node;
    if (orientation === 'white' || orientation === 'black') S.orientation = orientation;
  } catch (_) { forgetTree(); }
}

function renderStatus() {
  if (S.play && S.play.over) return setStatus(`Game over: ${S.play.over.result} (${S.play.over.reason})`);
  const out = T.outcomeOf(S.cur);
  if (out) return setStatus(`Game over: ${out.result} (${out.reason})`);
  if (S.busy) return setStatus('Engine is thinking…');
  const pos = T.positionOf(S.cur.fen);
  setStatus(`${colorName(pos.turn)} to move${pos.isCheck() ? ' (check)' : ''}`);
}

function renderMoves() {
  const el = $('movelist');
  el.classList.remove('prog');
  el.innerHTML = T.moveListHtml(S.tree, S.cur, judgements);
  const a = el.querySelector('move.active');
  if (a) {
    const top = a.offsetTop - el.offsetTop;
    if (top < el.scrollTop || top > el.scrollTop + el.clientHeight - 30) el.scrollTop = top - el.clientHeight / 2;
  }
  const inVariation = !T.isMainline(S.cur);
  $('tree-promote').disabled = !inVariation;
  $('tree-mainline').disabled = !inVariation;
  $('tree-delete').disabled = !S.cur.parent;
}
$('movelist').addEventListener('click', (e) => {
  const m = e.target.closest('move[data-id]');
  if (!m) return;
  if (S.variant === 'progressive') { S.prog.cursor = +m.dataset.id; progRender(); return; }
  const n = T.findNode(S.tree.root, +m.dataset.id);
  if (n) goto(n);
});
$('tree-promote').onclick = () => { if (T.promote(S.cur, false)) render(); };
$('tree-mainline').onclick = () => { if (T.promote(S.cur, true)) render(); };
$('tree-delete').onclick = () => { if (S.cur.parent && !S.play) goto(T.deleteNode(S.cur)); };

// ---------- navigation ----------
function nav(where) {
  if (S.variant === 'progressive') {
    const p = S.prog; if (!p) return;
    const n = p.plies.length;
    p.cursor = Math.max(0, Math.min(n, { first: 0, prev: p.cursor - 1, next: p.cursor + 1, last: n }[where] ?? p.cursor));
    progRender();
    return;
  }
  const c = S.cur;
  let n = c;
  if (where === 'first') n = S.tree.root;
  else if (where === 'prev') n = c.parent || c;
  else if (where === 'next') n = c.children[0] || c;
  else if (where === 'last') n = T.lineEnd(c);
  else if (where === 'enter') {
    // Into the first variation that branches here (the alternatives to the next main move).
    n = c.children[1] || c;
  } else if (where === 'leave') {
    // Back to the move the current variation branches from.
    for (let x = c; x.parent; x = x.parent) if (x.parent.children[0] !== x) { n = x.parent; break; }
  }
  if (n !== c) goto(n);
}
$('nav-first').onclick = () => nav('first');
$('nav-prev').onclick = () => nav('prev');
$('nav-next').onclick = () => nav('next');
$('nav-last').onclick = () => nav('last');
document.addEventListener('keydown', (e) => {
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName) || e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key;
  const act = e.shiftKey
    ? { ArrowRight: 'enter', ArrowLeft: 'leave' }[k]
    : { ArrowLeft: 'prev', ArrowRight: 'next', ArrowUp: 'first', Home: 'first', ArrowDown: 'last', End: 'last' }[k];
  if (act) { e.preventDefault(); nav(act); } else if (k === 'f') flip();
});
function flip() { S.orientation = other(S.orientation); cg.set({ orientation: S.orientation }); $('evalbar').classList.toggle('flipped', S.orientation === 'black'); saveTree(); }
$('flip').onclick = flip;

$('newgame').onclick = () => {
  stopGame();
  if (S.variant === 'progressive') { progLoad('', []).catch(showError); return; }
  setTree(T.newTree());
  forgetTree();
};

function setTree(tree) {
  stopFullAnalysis();
  S.tree = tree; judgements = new Map();
  S.cur = tree.root;
  render();
}

// ---------- analysis beside the moves (server-sent events read with fetch) ----------
const AN = { ctl: null, node: null, lines: {}, timer: null };
function stopAnalysis(text) {
  if (AN.ctl) AN.ctl.abort();
  AN.ctl = null;
  if (text !== undefined) $('an-info').textContent = text;
}
function analysisWanted() { return $('an-toggle').checked && S.variant === 'standard' && !S.editing; }
function scheduleAnalysis() {
  clearTimeout(AN.timer);
  if (!analysisWanted()) { stopAnalysis(); return; }
  AN.timer = setTimeout(startAnalysis, 120);
}
$('an-toggle').onchange = () => {
  if (analysisWanted()) startAnalysis();
  else { stopAnalysis('engine off'); $('an-lines').innerHTML = ''; cg.setAutoShapes([]); $('an-eval').textContent = ''; }
};
for (const id of ['an-multipv', 'an-threads']) $(id).onchange = () => { if (analysisWanted()) startAnalysis(); };

function evalBar(ev) {
  if (!ev) { $('evalfill').style.height = '50%'; $('evaltext').textContent = ''; return; }
  const frac = ev.mate !== undefined ? (ev.mate > 0 ? 1 : ev.mate < 0 ? 0 : 0.5) : 1 / (1 + Math.exp(-ev.cp / 250));
  $('evalfill').style.height = (frac * 100).toFixed(1) + '%';
  $('evaltext').textContent = T.evalText(ev);
}

function startAnalysis() {
  stopAnalysis();
  const node = S.cur;
  const pos = T.positionOf(node.fen);
  AN.node = node; AN.lines = {};
  $('an-lines').innerHTML = '';
  cg.setAutoShapes([]);
  const q = new URLSearchParams({
    fen: S.tree.root.fen, moves: T.pathOf(node).map((n) => n.uci).join(','),
    multipv: clamp($('an-multipv').value, LIMITS.multipv), threads: $('an-threads').value,
  });
  $('an-info').textContent = 'starting…';
  const ctl = new AbortController();
  AN.ctl = ctl;
  const mine = () => AN.ctl === ctl;
  (async () => {
    const r = await fetch('/api/analyse?' + q, { signal: ctl.signal, headers: { Accept: 'text/event-stream' } });
    if (!r.ok) {
      // The server's own words: a mated position, too many threads, a bad FEN, a busy server.
      let msg = null;
      try { msg = (await r.json()).error; } catch (_) { /* not JSON */ }
      throw new Error(msg || `${r.status} ${r.statusText}`);
    }
    await readEvents(r, (ev, data) => {
      if (!mine()) return;
      if (ev === 'info') onInfo(node, pos.turn, JSON.parse(data));
      else if (ev === 'done') $('an-info').textContent += ' — finished';
    });
  })().catch((e) => {
    if (mine() && e.name !== 'AbortError') $('an-info').innerHTML = `<span class="err">${esc(e.message || String(e))}</span>`;
  }).finally(() => { if (mine()) AN.ctl = null; });
}

function onInfo(node, turn, i) {
  AN.lines[i.multipv] = i;
  const ev = scoreWhite(i.score, turn);
  if (i.multipv === 1) {
    node.ceval = { ...ev, depth: i.depth };
    evalBar(ev);
    $('an-eval').textContent = T.evalText(ev);
    renderGraph();
  }
  $('an-info').textContent = `depth ${i.depth}/${i.seldepth} · ${Math.round(i.nps / 1000)} kn/s · ${(i.time_ms / 1000).toFixed(1)} s`;
  const keys = Object.keys(AN.lines).map(Number).sort((a, b) => a - b);
  const ply0 = node.ply;
  $('an-lines').innerHTML = keys.map((k) => {
    const l = AN.lines[k];
    const moves = l.pv_san.map((san, j) => {
      const ply = ply0 + j + 1;
      const num = ply % 2 === 1 ? `${(ply + 1) / 2}. ` : j === 0 ? `${Math.floor((ply + 1) / 2)}… ` : '';
      return `<span class="pvmove" data-j="${j}">${num}${esc(san)}</span>`;
    }).join(' ');
    const e = scoreWhite(l.score, turn);
    return `<div class="pv" data-k="${k}"><strong>${esc(T.evalText(e))}${l.bound !== 'exact' ? (l.bound === 'lower' ? '+' : '−') : ''}</strong> ${moves}</div>`;
  }).join('');
  // The best move of each line as an arrow, the first the strongest.
  cg.setAutoShapes(keys.filter((k) => AN.lines[k].pv[0]).map((k) => {
    const u = AN.lines[k].pv[0];
    return { orig: u.slice(0, 2), dest: u.slice(2, 4), brush: k === 1 ? 'paleBlue' : 'paleGrey' };
  }));
}

// A click on a move of a line plays the line up to it into the tree.
$('an-lines').addEventListener('click', (e) => {
  const m = e.target.closest('.pvmove');
  if (!m || !AN.node) return;
  const line = AN.lines[+m.closest('.pv').dataset.k];
  if (!line || S.play) return;
  goto(T.addUciLine(AN.node, line.pv.slice(0, +m.dataset.j + 1)));
});

// ---------- evaluation graph and full-game analysis ----------
const winChance = (ev) => ev.mate !== undefined ? (ev.mate > 0 ? 1 : ev.mate < 0 ? -1 : 0) : 2 / (1 + Math.exp(-0.00368208 * ev.cp)) - 1;
function nodeEval(n) {
  if (n.eval) return n.eval;
  if (n.ceval) return n.ceval;
  if (n.children.length) return null; // only the last position can be a finished game
  const out = T.outcomeOf(n);
  if (out && out.reason === 'checkmate') return { mate: out.result === '1-0' ? 1 : -1, final: true };
  if (out) return { cp: 0 };
  return null;
}

/** Marks each main-line move whose evaluation drop (winning chances, mover's view) is large. */
function judge() {
  judgements = new Map();
  const line = [S.tree.root, ...T.mainline(S.tree.root)];
  for (let i = 1; i < line.length; i++) {
    const a = nodeEval(line[i - 1]), b = nodeEval(line[i]);
    if (!a || !b) continue;
    const white = line[i].ply % 2 === 1;
    const drop = (winChance(a) - winChance(b)) * (white ? 1 : -1) / 2;
    if (drop >= 0.15) judgements.set(line[i], 'blunder');
    else if (drop >= 0.1) judgements.set(line[i], 'mistake');
    else if (drop >= 0.05) judgements.set(line[i], 'inaccuracy');
  }
}

function renderGraph() {
  judge();
  const line = [S.tree.root, ...T.mainline(S.tree.root)];
  const W = 600, H = 100, n = Math.max(line.length - 1, 1);
  const X = (i) => (i / n) * W, Y = (ev) => H / 2 - winChance(ev) * (H / 2 - 2);
  let pts = [], marks = '';
  line.forEach((node, i) => {
    const ev = nodeEval(node);
    if (!ev) return;
    pts.push([X(i), Y(ev)]);
    const j = judgements.get(node);
    if (j) marks += `<circle class="mark ${j}" data-id="${node.id}" cx="${X(i).toFixed(1)}" cy="${Y(ev).toFixed(1)}" r="4"><title>${esc(`${node.san}: ${j}`)}</title></circle>`;
  });
  const curIdx = line.indexOf(S.cur);
  const area = pts.length > 1 ? `<path class="area" d="M${pts[0][0].toFixed(1)},${H / 2} ${pts.map((p) => `L${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(' ')} L${pts[pts.length - 1][0].toFixed(1)},${H / 2} Z"/><polyline class="curve" points="${pts.map((p) => p.map((v) => v.toFixed(1)).join(',')).join(' ')}"/>` : '';
  $('graph').innerHTML = `<svg id="graph-svg" viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" aria-label="evaluation graph">` +
    `<rect class="bg" width="${W}" height="${H}"/>${area}<line class="mid" x1="0" x2="${W}" y1="${H / 2}" y2="${H / 2}"/>` +
    (curIdx >= 0 ? `<line class="cur" x1="${X(curIdx)}" x2="${X(curIdx)}" y1="0" y2="${H}"/>` : '') + marks + '</svg>';
}
$('graph').addEventListener('click', (e) => {
  const svg = $('graph-svg');
  if (!svg || S.variant !== 'standard') return;
  const line = [S.tree.root, ...T.mainline(S.tree.root)];
  const r = svg.getBoundingClientRect();
  const i = Math.round(((e.clientX - r.left) / r.width) * Math.max(line.length - 1, 1));
  if (line[i]) goto(line[i]);
});

const FA = { ctl: null };
function stopFullAnalysis() { if (FA.ctl) FA.ctl.abort(); FA.ctl = null; $('fa-cancel').hidden = true; $('fa-start').disabled = false; }
$('fa-cancel').onclick = () => { stopFullAnalysis(); $('fa-progress').textContent += ' — cancelled'; };
$('fa-start').onclick = async () => {
  stopFullAnalysis();
  const ctl = new AbortController();
  FA.ctl = ctl;
  $('fa-cancel').hidden = false; $('fa-start').disabled = true;
  const line = [S.tree.root, ...T.mainline(S.tree.root)].filter((n) => !T.positionOf(n.fen).isEnd());
  const movetime = clamp($('fa-ms').value, LIMITS.movetime_ms);
  const t0 = performance.now();
  let done = 0;
  try {
    for (const node of line) {
      if (FA.ctl !== ctl) return;
      $('fa-progress').textContent = `${done}/${line.length} positions · ${((performance.now() - t0) / 1000).toFixed(1)} s`;
      let r;
      for (let tries = 0; ; tries++) {
        try {
          r = await api('/engine/bestmove', { fen: S.tree.root.fen, moves: T.pathOf(node).map((n) => n.uci), movetime }, ctl.signal);
          break;
        } catch (e) {
          // A busy server (every job slot taken): wait and ask again.
          if (e.status !== 503 || tries > 20 || ctl.signal.aborted) throw e;
          await new Promise((res) => setTimeout(res, 500));
        }
      }
      T.setEval(node, scoreWhite(r.score, T.positionOf(node.fen).turn), r.depth);
      done++;
      renderMoves(); renderGraph(); saveTree();
    }
    $('fa-progress').textContent = `done: ${done} positions in ${((performance.now() - t0) / 1000).toFixed(1)} s`;
  } catch (e) {
    if (e.name !== 'AbortError') $('fa-progress').innerHTML = `<span class="err">${esc(e.message)}</span>`;
  } finally {
    if (FA.ctl === ctl) { FA.ctl = null; $('fa-cancel').hidden = true; $('fa-start').disabled = false; }
  }
};

// ---------- play against the engine ----------
function level(remainingMs, incMs) {
  if ($('levelkind').value === 'depth') return { depth: clamp($('levelval').value, LIMITS.depth) };
  let ms = clamp($('levelval').value, LIMITS.movetime_ms);
  if (remainingMs !== undefined) ms = Math.max(LIMITS.movetime_ms[0], Math.min(ms, Math.floor(remainingMs / 25 + incMs * 0.8)));
  return { movetime: ms };
}

function stopGame() {
  S.selfplay = false;
  if (S.play) { S.play.gen++; S.play = null; }
  S.busy = false;
  clearInterval(clockTimer);
  $('clock-top').hidden = $('clock-bottom').hidden = true;
  $('game-actions').hidden = true;
  boardMoved();
  if (S.prog) S.progSelf = false;
}

let clockTimer = null;
function clockNow() {
  const c = S.play && S.play.clock;
  if (!c) return null;
  const now = performance.now();
  const t = { white: c.white, black: c.black };
  if (c.running && !S.play.over) t[c.running] -= now - c.since;
  return t;
}
function renderClocks() {
  const t = clockNow();
  if (!t) return;
  const bottom = S.orientation, top = other(bottom);
  for (const [id, color] of [['clock-top', top], ['clock-bottom', bottom]]) {
    const el = $(id);
    if (el.hidden) { el.hidden = false; boardMoved(); }
    el.querySelector('.who').textContent = color === S.play.human ? 'You' : 'Bastion';
    el.querySelector('.time').textContent = T.clockText(Math.max(0, t[color]) / 1000);
    el.classList.toggle('running', S.play.clock.running === color && !S.play.over);
    el.classList.toggle('low', t[color] < 20000);
  }
  for (const color of ['white', 'black']) {
    if (t[color] > 0 || S.play.over) continue;
    // A flag falls: a loss, unless the other side could never mate (a draw, as in the rules).
    const winner = other(color);
    if (T.positionOf(S.cur.fen).hasInsufficientMaterial(winner)) endGame('1/2-1/2', `${color} ran out of time; ${winner} cannot mate`);
    else endGame(color === 'white' ? '0-1' : '1-0', `${color} ran out of time`);
  }
}
/** The clock after `node`'s move: the mover's time stops (plus the increment), the other side's starts. */
function clockMoved(node) {
  const c = S.play && S.play.clock;
  if (!c) return;
  const mover = node.ply % 2 === 1 ? 'white' : 'black';
  if (c.running === mover) c[mover] -= performance.now() - c.since;
  if (c.started) c[mover] += c.inc;
  c.started = true;
  c.running = other(mover); c.since = performance.now();
  node.comments.push(pgnLib.makeComment({ clock: Math.max(0, Math.round(c[mover] / 1000)) }));
}
function endGame(result, reason) {
  if (!S.play || S.play.over) return;
  // The clocks stop where they are: the running side's time is charged up to now.
  const c = S.play.clock;
  if (c && c.running) { c[c.running] = Math.max(0, c[c.running] - (performance.now() - c.since)); c.running = null; }
  S.play.over = { result, reason };
  if (c) renderClocks();
  S.play.gen++;
  S.busy = false;
  S.tree.headers.set('Result', result);
  $('game-actions').hidden = true;
  beep(520, 150); beep(390, 250, 160);
  render();
}

async function maybeEngineMove() {
  const p = S.play;
  if (!p || p.over) return;
  const out = T.outcomeOf(S.cur);
  if (out) { endGame(out.result, out.reason); return; }
  if (T.positionOf(S.cur.fen).turn === p.human || S.cur.children.length) return;
  const gen = p.gen;
  S.busy = true; renderStatus();
  try {
    const c = clockNow();
    const engineColor = other(p.human);
    const lv = c ? level(c[engineColor], p.clock.inc) : level();
    const r = await api('/engine/bestmove', { fen: S.tree.root.fen, moves: T.pathOf(S.cur).map((n) => n.uci), ...lv });
    if (S.play !== p || p.gen !== gen) return;
    S.busy = false;
    const before = S.cur;
    const node = T.addUciLine(before, [r.bestmove]);
    if (node === before) throw new Error(`the engine's move ${r.bestmove} is not legal here`);
    const ev = scoreWhite(r.score, T.positionOf(before.fen).turn);
    p.lastEval = ev; node.ceval = ev;
    evalBar(ev);
    clockMoved(node);
    goto(node);
    moveSound(node);
    const end = T.outcomeOf(node);
    if (end) { endGame(end.result, end.reason); return; }
    cg.playPremove();
  } finally {
    if (S.play === p && p.gen === gen) { S.busy = false; renderStatus(); }
  }
}

$('play-start').onclick = () => {
  stopGame();
  let human = $('play-color').value;
  if (human === 'random') human = Math.random() < 0.5 ? 'w' : 'b';
  human = human === 'w' ? 'white' : 'black';
  const [mins, inc] = $('tc').value.split('+').map(Number);
  const tree = T.newTree(S.cur.fen);
  tree.headers.set('White', human === 'white' ? 'Human' : 'Bastion');
  tree.headers.set('Black', human === 'black' ? 'Human' : 'Bastion');
  if (mins) tree.headers.set('TimeControl', `${mins * 60}+${inc}`);
  S.play = { human, gen: 0, over: null, clock: mins ? { white: mins * 60000, black: mins * 60000, inc: inc * 1000, running: null, since: 0, started: false } : null };
  S.orientation = human;
  $('game-actions').hidden = false;
  setTree(tree);
  if (S.play.clock) { renderClocks(); clockTimer = setInterval(renderClocks, 100); }
  maybeEngineMove().catch(showError);
};
$('resign').onclick = () => { if (S.play) endGame(S.play.human === 'white' ? '0-1' : '1-0', `${S.play.human} resigned`); };
$('draw-offer').onclick = async () => {
  const p = S.play;
  if (!p || p.over) return;
  try {
    let ev = p.lastEval;
    if (!ev) {
      const r = await api('/engine/bestmove', { fen: S.tree.root.fen, moves: T.pathOf(S.cur).map((n) => n.uci), movetime: Math.min(300, LIMITS.movetime_ms[1]) });
      ev = scoreWhite(r.score, T.positionOf(S.cur.fen).turn);
    }
    // The engine accepts when it sees nothing better than a draw for itself.
    const forEngine = ev.mate !== undefined ? (p.human === 'white' ? -ev.mate : ev.mate) * 10000 : (p.human === 'white' ? -ev.cp : ev.cp);
    if (forEngine <= 30) endGame('1/2-1/2', 'draw agreed');
    else setStatus(`Bastion declines the draw (its eval ${T.evalText(ev)})`);
  } catch (e) { showError(e); }
};
$('takeback').onclick = () => {
  const p = S.play;
  if (!p || p.over || !S.cur.parent) return;
  // Back to the human's last turn: the human's last move goes, with the engine's reply to it
  // (or its search, which the new generation makes stale).
  const humanMove = T.positionOf(S.cur.fen).turn === p.human ? S.cur.parent : S.cur;
  if (!humanMove || !humanMove.parent) return;
  p.gen++; S.busy = false;
  cg.cancelPremove();
  if (p.clock) { p.clock.running = p.human; p.clock.since = performance.now(); }
  goto(T.deleteNode(humanMove));
};

$('selfplay').onclick = async () => {
  if (S.selfplay) return;
  stopGame();
  S.selfplay = true;
  const mine = {};
  S.selfGen = mine;
  try {
    while (S.selfplay && S.selfGen === mine && !T.outcomeOf(S.cur)) {
      S.busy = true; renderStatus();
      const r = await api('/engine/bestmove', { fen: S.tree.root.fen, moves: T.pathOf(S.cur).map((n) => n.uci), ...level() });
      if (!S.selfplay || S.selfGen !== mine) break;
      const before = S.cur;
      const node = T.addUciLine(before, [r.bestmove]);
      if (node === before) break;
      node.ceval = scoreWhite(r.score, T.positionOf(before.fen).turn);
      evalBar(node.ceval);
      S.busy = false;
      goto(node);
      moveSound(node);
    }
  } catch (e) { showError(e); }
  if (S.selfGen === mine) { S.selfplay = false; S.busy = false; render(); }
};
$('selfplay-stop').onclick = () => { stopGame(); render(); };
$('levelkind').onchange = () => applyLimits();

// ---------- PGN, FEN and files ----------
$('fen-load').onclick = async () => {
  const fen = $('fen').value.trim();
  try {
    // The server's check first, so that a bad FEN is refused in its words.
    await api('/legal', { fen });
    stopGame();
    if (S.variant === 'progressive') { await progLoad(fen, []); return; }
    setTree(T.newTree(fen));
  } catch (e) { showError(e); }
};
async function exportText() {
  if (S.variant === 'progressive') return (await api('/progressive/record', progBody({}))).record;
  return T.exportPgn(S.tree);
}
async function importText(text) {
  stopGame();
  if (S.variant === 'progressive') { await progApply(await api('/progressive/game', { record: text })); return; }
  setTree(T.importPgn(text));
}
$('pgn-export').onclick = async () => { try { $('pgn').value = await exportText(); } catch (e) { showError(e); } };
$('pgn-import').onclick = async () => { try { await importText($('pgn').value); } catch (e) { showError(e); } };
$('pgn-save').onclick = async () => {
  try {
    const text = await exportText();
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
  try { const text = await f.text(); $('pgn').value = text; await importText(text); } catch (err) { showError(err); }
  e.target.value = '';
};

// ---------- tabs ----------
document.querySelectorAll('#tabs button').forEach((b) => {
  b.onclick = () => {
    document.querySelectorAll('#tabs button').forEach((x) => x.classList.toggle('active', x === b));
    const was = S.tab;
    S.tab = b.dataset.tab;
    for (const t of ['play', 'pgn', 'solver', 'tablebase', 'fortress', 'editor']) $('panel-' + t).hidden = t !== S.tab;
    if (S.tab === 'editor' && was !== 'editor') startEditor();
    if (S.tab !== 'editor' && was === 'editor') stopEditor();
    if (S.tab === 'tablebase') tools.tablebaseShown();
  };
});

// ---------- board editor ----------
const PALETTE = ['K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'b', 'n', 'p'];
const ROLE = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
$('ed-palette').innerHTML = '<button data-tool="" class="active" title="move pieces">✥</button>' +
  PALETTE.map((p) => `<button data-tool="${p}" title="${p === p.toUpperCase() ? 'white' : 'black'} ${ROLE[p.toLowerCase()]}"><piece class="${p === p.toUpperCase() ? 'white' : 'black'} ${ROLE[p.toLowerCase()]}"></piece></button>`).join('') +
  '<button data-tool="x" title="remove pieces">🗑</button>';
$('ed-palette').addEventListener('click', (e) => {
  const b = e.target.closest('button');
  if (!b) return;
  S.edTool = b.dataset.tool || null;
  document.querySelectorAll('#ed-palette button').forEach((x) => x.classList.toggle('active', x === b));
});
function startEditor() {
  S.editing = true;
  stopAnalysis(); stopGame();
  const f = S.cur.fen.split(' ');
  $('ed-turn').value = f[1];
  for (const c of 'KQkq') $('ed-' + c).checked = f[2].includes(c);
  cg.set({ fen: S.cur.fen, lastMove: undefined, check: false, movable: { free: true, color: 'both', dests: new Map() }, premovable: { enabled: false }, draggable: { deleteOnDropOff: true } });
  cg.setAutoShapes([]);
  editorChanged();
}
function stopEditor() { S.editing = false; updateBoard(); scheduleAnalysis(); }
function editorFen() {
  const castling = [...'KQkq'].filter((c) => $('ed-' + c).checked).join('') || '-';
  return `${cg.getFen()} ${$('ed-turn').value} ${castling} - 0 1`;
}
function editorChanged() { $('ed-fen').value = editorFen(); }
/** A click on the board with a piece or the remover picked: placed or removed at once (before chessground sees it). */
function editorPointer(e) {
  if (!S.editing || !S.edTool || (e.button !== undefined && e.button > 0)) return;
  const p = e.touches ? e.touches[0] : e;
  const b = document.querySelector('#board cg-board').getBoundingClientRect();
  let f = Math.floor(((p.clientX - b.left) / b.width) * 8), r = 7 - Math.floor(((p.clientY - b.top) / b.height) * 8);
  if (f < 0 || f > 7 || r < 0 || r > 7) return;
  if (S.orientation === 'black') { f = 7 - f; r = 7 - r; }
  const key = 'abcdefgh'[f] + (r + 1);
  e.preventDefault(); e.stopPropagation();
  const cur = cg.state.pieces.get(key);
  let piece;
  if (S.edTool !== 'x') {
    const t = S.edTool;
    piece = { role: ROLE[t.toLowerCase()], color: t === t.toUpperCase() ? 'white' : 'black' };
    if (cur && cur.role === piece.role && cur.color === piece.color) piece = undefined;
  }
  cg.setPieces(new Map([[key, piece]]));
  editorChanged();
}
$('board').addEventListener('mousedown', editorPointer, { capture: true });
$('board').addEventListener('touchstart', editorPointer, { capture: true, passive: false });
for (const id of ['ed-turn', 'ed-K', 'ed-Q', 'ed-k', 'ed-q']) $(id).onchange = editorChanged;
$('ed-start').onclick = () => { cg.set({ fen: T.START_FEN }); $('ed-turn').value = 'w'; for (const c of 'KQkq') $('ed-' + c).checked = true; editorChanged(); };
$('ed-clear').onclick = () => { cg.set({ fen: '8/8/8/8/8/8/8/8' }); for (const c of 'KQkq') $('ed-' + c).checked = false; editorChanged(); };
$('ed-from').onclick = () => {
  const f = $('ed-fen').value.trim().split(/\s+/);
  cg.set({ fen: f[0] });
  if (f[1]) $('ed-turn').value = f[1] === 'b' ? 'b' : 'w';
  for (const c of 'KQkq') $('ed-' + c).checked = (f[2] || '').includes(c);
  editorChanged();
};
$('ed-done').onclick = async () => {
  const fen = $('ed-fen').value.trim();
  try {
    await api('/legal', { fen });
    $('ed-out').textContent = '';
    setTree(T.newTree(fen));
    document.querySelector('#tabs button[data-tab="play"]').onclick();
  } catch (e) { $('ed-out').innerHTML = `<span class="err">${esc(e.message)}</span>`; }
};

// ---------- solver, tablebase, fortress (tools.js) ----------
const tools = setupTools({
  fen: () => (S.variant === 'standard' ? S.cur.fen : progFen()),
  playUci: (ucis) => { if (S.variant === 'standard' && !S.play) goto(T.addUciLine(S.cur, ucis)); },
  // Only positions with few pieces are worth a probe.
  tablebase: () => S.variant === 'standard' && S.cur.fen.split(' ')[0].replace(/[^a-zA-Z]/g, '').length <= 8,
});

function onPositionChange() {
  const key = S.variant === 'standard' ? S.cur.fen : progFen();
  if (key !== onPositionChange.last) {
    onPositionChange.last = key;
    tools.positionChanged(S.tab === 'tablebase');
    if (S.variant === 'standard' && !S.selfplay && !S.play) evalBar(S.cur.eval || S.cur.ceval || null);
    scheduleAnalysis();
  }
}

// ---------- Progressive chess (rules and moves from the server) ----------
const progFen = () => { const p = S.prog; if (!p) return T.START_FEN; return p.cursor === 0 ? p.start_fen : p.plies[p.cursor - 1].fen; };
function progBody(extra) { const p = S.prog || { start_fen: '', plies: [] }; return { start_fen: p.start_fen, rules: $('prog-rules').value, moves: p.plies.map((x) => x.uci), ...extra }; }
async function progLoad(startFen, moves) {
  await progApply(await api('/progressive/game', { start_fen: startFen, rules: $('prog-rules').value, moves }));
}
async function progApply(r) {
  S.prog = { ...r, cursor: r.plies.length };
  $('prog-series').textContent = r.result ? '' : `${r.side === 'w' ? 'White' : 'Black'} plays a series of ${r.series_len}; ${r.played} played.`;
  progRender();
}
function progBoard() {
  const p = S.prog;
  if (!p) return;
  const atEnd = p.cursor === p.plies.length;
  const humanTurn = !S.selfplay && !S.busy && (!S.progPlay || S.progPlay === 'none' || S.progPlay === p.side);
  const live = atEnd && humanTurn && !p.result;
  const dests = new Map();
  if (live) for (const m of p.legal) { const l = dests.get(m.from) || []; l.push(m.to); dests.set(m.from, l); }
  const color = p.side === 'w' ? 'white' : 'black';
  const fen = progFen();
  const last = p.cursor > 0 ? p.plies[p.cursor - 1].uci : null;
  cg.set({
    fen, turnColor: fen.split(' ')[1] === 'b' ? 'black' : 'white', orientation: S.orientation,
    lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : undefined,
    check: atEnd && p.in_check ? color : false,
    movable: { free: false, color: live ? color : undefined, dests },
    premovable: { enabled: false },
  });
  if (live) cg.state.turnColor = color;
}
function progRender() {
  const p = S.prog;
  if (!p) return;
  progBoard();
  $('fen').value = progFen();
  const el = $('movelist');
  el.classList.add('prog');
  let idx = 0;
  el.innerHTML = p.turns.map((t, i) => `<div class="turn"><index>${i + 1}.</index> ` +
    t.map((m) => { idx++; return `<move data-id="${idx}"${idx === p.cursor ? ' class="active"' : ''}>${esc(m)}</move>`; }).join(' ') + '</div>').join('');
  if (p.result && p.cursor === p.plies.length) setStatus(`Game over: ${p.result.result} (${p.result.reason})`);
  else if (S.busy) setStatus('Computer is thinking…');
  else setStatus(`${p.side === 'w' ? 'White' : 'Black'} to move — series ${p.turn}: move ${p.played + 1} of ${p.series_len}`);
  onPositionChange();
}
async function progUserMove(orig, dest) {
  const p = S.prog;
  let m = p.legal.filter((x) => x.from === orig && x.to === dest);
  if (m.length > 1) {
    const role = await choosePromotion(p.side === 'w' ? 'white' : 'black');
    m = m.filter((x) => x.promotion === (role && (role === 'knight' ? 'n' : role[0])));
  }
  if (!m.length) { progBoard(); return; }
  await progLoad(p.start_fen, [...p.plies.map((x) => x.uci), m[0].uci]);
  beep(480, 60);
  await progMaybeComputer();
}
async function progComputer() {
  S.busy = true; progRender();
  try {
    const r = await api('/progressive/computer', progBody({}));
    S.busy = false;
    await progLoad(S.prog.start_fen, [...S.prog.plies.map((x) => x.uci), ...r.series]);
  } finally { S.busy = false; }
}
async function progMaybeComputer() {
  if (!S.progPlay || S.progPlay === 'none' || !S.prog || S.prog.result) return;
  if (S.prog.side !== S.progPlay) await progComputer();
  progRender();
}
$('prog-start').onclick = async () => {
  stopGame(); S.progPlay = $('prog-side').value;
  S.orientation = S.progPlay === 'b' ? 'black' : 'white';
  try { await progLoad(S.prog.start_fen, S.prog.plies.map((x) => x.uci)); await progMaybeComputer(); } catch (e) { showError(e); }
};
$('prog-selfplay').onclick = async () => {
  if (S.selfplay) return;
  S.selfplay = true; S.progPlay = null;
  try { while (S.selfplay && S.prog && !S.prog.result) await progComputer(); } catch (e) { showError(e); }
  S.selfplay = false; progRender();
};
$('prog-stop').onclick = () => { S.selfplay = false; S.progPlay = null; progRender(); };
$('prog-rules').onchange = () => { if (S.variant === 'progressive') $('newgame').onclick(); };
$('prog-mate').onclick = async () => {
  const out = $('prog-mate-out');
  out.innerHTML = 'searching…';
  try {
    const secs = clamp($('prog-mate-time').value || 5, [1, Math.max(1, Math.floor(LIMITS.progressive_ms[1] / 1000))]);
    const r = await api('/progressive/mate', progBody({ time_ms: secs * 1000 }));
    if (r.found) {
      out.innerHTML = `<b>Mate:</b> <span class="line">${esc(r.series_text)}</span> <span class="note">(${r.nodes.toLocaleString()} nodes, ${r.elapsed_ms} ms)</span> <button id="prog-mate-play">Play it</button>`;
      const base = S.prog.plies.map((x) => x.uci);
      $('prog-mate-play').onclick = () => progLoad(S.prog.start_fen, [...base, ...r.series]).catch(showError);
    } else out.textContent = `No mate found in this series (${r.reason || ''}, ${r.nodes.toLocaleString()} nodes)`;
  } catch (e) { out.innerHTML = `<span class="err">${esc(e.message)}</span>`; }
};

$('variant').onchange = async () => {
  stopGame(); stopAnalysis(); stopFullAnalysis();
  S.variant = $('variant').value;
  const prog = S.variant === 'progressive';
  document.body.classList.toggle('progressive', prog);
  $('std-play').hidden = prog;
  $('prog-play').hidden = !prog;
  if (S.tab === 'editor') document.querySelector('#tabs button[data-tab="play"]').onclick();
  if (prog) { S.progPlay = null; await progLoad('', []).catch(showError); } else { S.prog = null; setTree(T.newTree()); }
};

// ---------- the server's limits ----------
function setRange(id, range) {
  const el = $(id);
  el.min = range[0]; el.max = range[1];
  if (el.value !== '') el.value = clamp(el.value, range);
}
/** Every form's limits are the server's (GET /api/info → limits). */
function applyLimits() {
  setRange('an-multipv', LIMITS.multipv);
  setRange('an-threads', LIMITS.threads);
  setRange('levelval', $('levelkind').value === 'depth' ? LIMITS.depth : LIMITS.movetime_ms);
  setRange('fa-ms', LIMITS.movetime_ms);
  setRange('fo-depth', LIMITS.fortress_depth);
  setRange('fo-moves', LIMITS.fortress_moves);
  setRange('sv-time', [1, Math.max(1, Math.floor(LIMITS.solve_ms[1] / 1000))]);
  setRange('prog-mate-time', [1, Math.max(1, Math.floor(LIMITS.progressive_ms[1] / 1000))]);
  setLimits(LIMITS);
}

// ---------- start ----------
restoreTree();
render();
api('/info').then((i) => {
  if (i.limits) { LIMITS = { ...LIMITS, ...i.limits }; applyLimits(); }
  tools.info(i);
  if (!i.features.progressive) $('variant').querySelector('[value="progressive"]').textContent += ' (not available)';
  document.body.dataset.ready = '1';
}).catch(showError);
window.addEventListener('resize', () => document.body.dispatchEvent(new Event('chessground.resize')));
