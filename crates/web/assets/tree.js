// The game tree: every move tried is kept (a move at an earlier ply adds a variation), with
// comments, NAGs and evaluations; PGN in and out with chessops; the move list as HTML.
import { Chess, makeUci, kingCastlesTo, parseSquare, fen as fenLib, san as sanLib, pgn as pgnLib } from './chessops.js';

export const START_FEN = fenLib.INITIAL_FEN;
const GLYPHS = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' };
const NAG_NAMES = { 10: '=', 13: '∞', 14: '⩲', 15: '⩱', 16: '±', 17: '∓', 18: '+−', 19: '−+', 22: '⨀', 32: '⟳', 36: '→', 40: '↑', 132: '⇆', 138: '⊕', 146: 'N' };
let nextId = 1;

/** A position from a FEN; throws with chessops' reason. */
export function positionOf(fen) {
  const setup = fenLib.parseFen(fen);
  if (setup.isErr) throw new Error(`bad FEN (${setup.error.message})`);
  const pos = Chess.fromSetup(setup.value);
  if (pos.isErr) throw new Error(`illegal position (${pos.error.message})`);
  return pos.value;
}
export const fenOf = (pos) => fenLib.makeFen(pos.toSetup());

/** UCI as the server reads it: castling as the king's two-square move. */
export function uciOf(pos, move) {
  const piece = pos.board.get(move.from);
  if (piece && piece.role === 'king' && (pos.board[pos.turn].has(move.to) || Math.abs(move.to - move.from) === 2)) {
    const to = kingCastlesTo(pos.turn, move.to > move.from ? 'h' : 'a');
    return makeUci({ from: move.from, to });
  }
  return makeUci(move);
}

/** A white-view evaluation ({cp} or {mate}) from a comment's `[%eval]`. */
function evalOfComments(comments) {
  for (const c of comments) {
    const e = pgnLib.parseComment(c).evaluation;
    if (e) return e.mate !== undefined ? { mate: e.mate } : { cp: Math.round(e.pawns * 100) };
  }
  return null;
}

function makeNode(parent, fields) {
  return { id: nextId++, parent, children: [], comments: [], startingComments: [], nags: [], eval: null, ...fields };
}

/** A new tree from a position, with the tags of a new game. */
export function newTree(fen = START_FEN) {
  const pos = positionOf(fen);
  const start = fenOf(pos);
  const headers = new Map([
    ['Event', 'Bastion analysis'], ['Site', 'Bastion web app'],
    ['Date', new Date().toISOString().slice(0, 10).replace(/-/g, '.')], ['Round', '-'],
    ['White', '?'], ['Black', '?'], ['Result', '*'],
  ]);
  if (start !== START_FEN) { headers.set('SetUp', '1'); headers.set('FEN', start); }
  return { headers, root: rootNode(pos, start) };
}

function rootNode(pos, fen) {
  return makeNode(null, { ply: (pos.fullmoves - 1) * 2 + (pos.turn === 'white' ? 0 : 1), fen, san: null, uci: null });
}

/** The child of `node` for `move` (a chessops move), made if it is new: an existing line is never cut. */
export function addMove(node, move) {
  const pos = positionOf(node.fen);
  if (!pos.isLegal(move)) return null;
  const uci = uciOf(pos, move);
  const old = node.children.find((c) => c.uci === uci);
  if (old) return old;
  const san = sanLib.makeSan(pos, move);
  pos.play(move);
  const child = makeNode(node, { ply: node.ply + 1, fen: fenOf(pos), san, uci });
  node.children.push(child);
  return child;
}

/** Plays moves given in UCI from `node`; returns the last node. */
export function addUciLine(node, ucis) {
  for (const u of ucis) {
    const from = parseSquare(u.slice(0, 2)), to = parseSquare(u.slice(2, 4));
    const promotion = u.length > 4 ? { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' }[u[4]] : undefined;
    if (from === undefined || to === undefined) break;
    const next = addMove(node, promotion ? { from, to, promotion } : { from, to });
    if (!next) break;
    node = next;
  }
  return node;
}

/** How the game ends at `node` (mate, stalemate, dead material, fifty moves, threefold), or null. */
export function outcomeOf(node) {
  const pos = positionOf(node.fen);
  if (pos.isCheckmate()) return { result: pos.turn === 'white' ? '0-1' : '1-0', reason: 'checkmate' };
  if (pos.isStalemate()) return { result: '1/2-1/2', reason: 'stalemate' };
  if (pos.isInsufficientMaterial()) return { result: '1/2-1/2', reason: 'insufficient material' };
  if (pos.halfmoves >= 100) return { result: '1/2-1/2', reason: 'fifty-move rule' };
  const key = (f) => f.split(' ').slice(0, 4).join(' ');
  const k = key(node.fen);
  let seen = 0;
  for (let n = node; n; n = n.parent) if (key(n.fen) === k) seen++;
  return seen >= 3 ? { result: '1/2-1/2', reason: 'threefold repetition' } : null;
}

export const pathOf = (node) => { const p = []; for (let n = node; n.parent; n = n.parent) p.unshift(n); return p; };
/** Where `node` is in its tree: the index of each move among its siblings, from the root. */
export const indexPath = (node) => pathOf(node).map((n) => n.parent.children.indexOf(n));
/** Whether a tree holds nothing worth keeping: the start position, no moves, no comment. */
export const isBlank = (tree) => !tree.root.children.length && tree.root.fen === START_FEN && !tree.root.comments.length;
export const rootOf = (node) => { while (node.parent) node = node.parent; return node; };
export const lineEnd = (node) => { while (node.children.length) node = node.children[0]; return node; };
export const mainline = (root) => { const l = []; for (let n = root; n.children.length; ) { n = n.children[0]; l.push(n); } return l; };
export const isMainline = (node) => { for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false; return true; };
export const findNode = (root, id) => {
  const stack = [root];
  while (stack.length) { const n = stack.pop(); if (n.id === id) return n; stack.push(...n.children); }
  return null;
};

/** Moves the variation holding `node` one level up (it becomes its parent line's main move there). */
export function promote(node, toMain) {
  let moved = false;
  for (let n = node; n.parent; n = n.parent) {
    const sibs = n.parent.children;
    if (sibs[0] !== n) {
      sibs.splice(sibs.indexOf(n), 1); sibs.unshift(n); moved = true;
      if (!toMain) break;
    }
  }
  return moved;
}

/** Removes `node` and everything after it; returns its parent. */
export function deleteNode(node) {
  const p = node.parent;
  if (!p) return node;
  p.children.splice(p.children.indexOf(node), 1);
  return p;
}

/** Sets a white-view evaluation on a node and writes it into its comments as `[%eval]`. */
export function setEval(node, ev, depth) {
  node.eval = ev;
  if (!node.parent) return;
  const evaluation = ev.mate !== undefined ? { mate: ev.mate, depth } : { pawns: ev.cp / 100, depth };
  const i = node.comments.findIndex((c) => pgnLib.parseComment(c).evaluation);
  if (i >= 0) {
    const parsed = pgnLib.parseComment(node.comments[i]);
    node.comments[i] = pgnLib.makeComment({ ...parsed, evaluation });
  } else node.comments.push(pgnLib.makeComment({ evaluation }));
}

// ---------- PGN ----------

/** The first game of a PGN text as a tree: tags, comments, NAGs and variations kept. */
export function importPgn(text) {
  // Only the tags the text has (no seven-tag roster filled in), so that export gives them back as they were.
  const games = pgnLib.parsePgn(text, pgnLib.emptyHeaders);
  if (!games.length) throw new Error('no game found in the PGN text');
  const game = games[0];
  const start = pgnLib.startingPosition(game.headers);
  if (start.isErr) throw new Error(`PGN start position: ${start.error.message}`);
  const pos = start.value;
  const root = rootNode(pos, fenOf(pos));
  root.comments = game.comments || [];
  const build = (pgnNode, node, p) => {
    for (const child of pgnNode.children) {
      const d = child.data;
      const q = p.clone();
      const move = sanLib.parseSan(q, d.san);
      if (!move) throw new Error(`illegal move ${d.san} after ${node.san ? `${moveNumber(node)}${node.san}` : 'the start'}`);
      const san = sanLib.makeSan(q, move);
      const uci = uciOf(q, move);
      q.play(move);
      const tn = makeNode(node, { ply: node.ply + 1, fen: fenOf(q), san, uci });
      tn.comments = d.comments || [];
      tn.startingComments = d.startingComments || [];
      tn.nags = d.nags || [];
      tn.eval = evalOfComments(tn.comments);
      node.children.push(tn);
      build(child, tn, q);
    }
  };
  build(game.moves, root, pos);
  return { headers: game.headers, root };
}

const moveNumber = (n) => `${Math.floor((n.ply + 1) / 2)}${n.ply % 2 === 1 ? '.' : '...'}`;
const nagText = (nags, pgn) => nags.map((g) => GLYPHS[g] ? '' : (pgn ? ` $${g}` : ` ${NAG_NAMES[g] || '$' + g}`)).join('');
const glyphs = (nags) => nags.map((g) => GLYPHS[g] || '').join('');
const quote = (v) => String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/** The tree as PGN: the tags as they are, then the moves with comments, NAGs and variations. */
export function exportPgn(tree) {
  const tags = [...tree.headers].map(([k, v]) => `[${k} "${quote(v)}"]`).join('\n');
  const out = [];
  for (const c of tree.root.comments) out.push(`{ ${c} }`);
  writeLine(tree.root, out, true);
  out.push(tree.headers.get('Result') || '*');
  return `${tags ? `${tags}\n\n` : ''}${out.join(' ')}\n`;
}

function writeMove(n, out, force) {
  for (const c of n.startingComments) out.push(`{ ${c} }`);
  const num = n.ply % 2 === 1 || force || n.startingComments.length ? `${moveNumber(n)} ` : '';
  out.push(`${num}${n.san}${glyphs(n.nags)}${nagText(n.nags, true)}`);
  for (const c of n.comments) out.push(`{ ${c} }`);
  return n.comments.length > 0;
}

/** Writes the moves after `node` (main line first, each alternative in parentheses after it). */
function writeLine(node, out, force) {
  while (node.children.length) {
    const [main, ...alts] = node.children;
    force = writeMove(main, out, force);
    for (const a of alts) {
      const sub = [];
      const f = writeMove(a, sub, true);
      writeLine(a, sub, f);
      out.push(`( ${sub.join(' ')} )`);
      force = true;
    }
    node = main;
  }
}

// ---------- move list (lichess style: main line in columns, variations inline below a move) ----------

const escHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
function commentHtml(raw) {
  const c = pgnLib.parseComment(raw);
  return c.text ? `<comment>${escHtml(c.text)}</comment>` : '';
}
/** Seconds as h:mm:ss or m:ss. */
export function clockText(s) {
  s = Math.max(0, s);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = Math.floor(s % 60);
  return (h ? `${h}:${String(m).padStart(2, '0')}` : `${m}`) + `:${String(sec).padStart(2, '0')}`;
}
/** Text of a white-view evaluation. */
export function evalText(ev) {
  if (!ev) return '';
  if (ev.mate !== undefined) return ev.mate === 0 ? '#' : `#${ev.mate}`;
  const v = Math.round(ev.cp / 10) / 10;
  return `${v > 0 ? '+' : ''}${(v || 0).toFixed(1)}`;
}

/** The clock left after a move, from its `[%clk]` comment. */
function clockOf(n) {
  for (const c of n.comments) { const k = pgnLib.parseComment(c).clock; if (k !== undefined) return k; }
  return undefined;
}

function moveHtml(n, ctx, num) {
  const clk = clockOf(n);
  const cls = [n === ctx.cur ? 'active' : '', ctx.path.has(n) ? 'inpath' : '', ctx.judgement.get(n) || ''].filter(Boolean).join(' ');
  return `<move data-id="${n.id}"${cls ? ` class="${cls}"` : ''}>${num ? `<index>${moveNumber(n)}</index>` : ''}<san>${escHtml(n.san)}${escHtml(glyphs(n.nags))}</san>${escHtml(nagText(n.nags, false))}${n.eval ? `<eval>${escHtml(evalText(n.eval))}</eval>` : ''}${clk !== undefined ? `<span class="clk">${escHtml(clockText(clk))}</span>` : ''}</move>`;
}

function inlineLine(first, ctx) {
  let html = first.startingComments.map(commentHtml).join('') + moveHtml(first, ctx, true) + first.comments.map(commentHtml).join('');
  let force = first.comments.length > 0;
  for (let n = first; n.children.length; ) {
    const [main, ...alts] = n.children;
    html += main.startingComments.map(commentHtml).join('') + moveHtml(main, ctx, force || main.ply % 2 === 1) + main.comments.map(commentHtml).join('');
    force = main.comments.length > 0;
    for (const a of alts) { html += `<paren>(${inlineLine(a, ctx)})</paren>`; force = true; }
    n = main;
  }
  return html;
}

/** The move list as HTML: `cur` is the node shown, `judgement` maps nodes to "blunder"/"mistake"/"inaccuracy". */
export function moveListHtml(tree, cur, judgement = new Map()) {
  const ctx = { cur, path: new Set(pathOf(cur)), judgement };
  let html = '';
  const root = tree.root;
  if (root.comments.length) html += `<interrupt>${root.comments.map(commentHtml).join('')}</interrupt>`;
  let needIndex = true;
  for (let n = root; n.children.length; ) {
    const [main, ...alts] = n.children;
    const white = main.ply % 2 === 1;
    if (white) html += `<index>${Math.floor((main.ply + 1) / 2)}</index>`;
    else if (needIndex) html += `<index>${Math.floor((main.ply + 1) / 2)}</index><move class="empty">…</move>`;
    html += moveHtml(main, ctx, false);
    needIndex = false;
    const notes = main.comments.map(commentHtml).join('');
    if (notes || alts.length) {
      if (white) html += '<move class="empty">…</move>';
      html += `<interrupt>${notes}${alts.length ? `<lines>${alts.map((a) => `<line>${inlineLine(a, ctx)}</line>`).join('')}</lines>` : ''}</interrupt>`;
      needIndex = white;
    }
    n = main;
  }
  const result = tree.headers.get('Result');
  if (result && result !== '*') html += `<div class="result">${escHtml(result)}</div>`;
  return html;
}
