// The playground's play modes (#play/<game>?<state>): Sudoku, N-Queens, word ladder, knight's tour and
// the rank explorer, each played against the service's own endpoints: the page draws the board and
// takes moves, every judgement, hint, completion and explanation is a request. Also the front page
// (no view after #), which shows them: the puzzle of the day and a card per mode with its picture. A
// game's whole state (its seed, the moves so far) is kept in the address with history.replaceState,
// so reloading or sharing the address reproduces the view. Boards are buttons with a roving tabindex: Tab reaches the
// board once, the arrow keys move inside it, Enter or Space plays the focused square.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);

  // el('button', {className: 'x', onclick}, 'text', child…)
  function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else if (/^(aria|data)[A-Z]/.test(key)) node.setAttribute(key.replace(/^(aria|data)([A-Z])/, '$1-$2').toLowerCase(), value);
      else node[key] = value;
    }
    node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
    return node;
  }

  function choice(id, label, options, value) {
    const select = el('select', {id}, ...options.map(([v, text]) => new Option(text, v)));
    select.value = value;
    return el('span', {className: 'control'}, el('label', {htmlFor: id}, label), select);
  }

  let game = null, params = new URLSearchParams(), viewToken = 0;

  function say(text, kind = '') {
    $('play-status').textContent = text;
    $('play-status').className = `play-status ${kind}`;
  }

  // Keeps the game's state in the address (no new history entry per move).
  function save(state) {
    params = new URLSearchParams(Object.entries(state).filter(([, v]) => v !== '' && v !== null && v !== undefined));
    history.replaceState(null, '', `#play/${game}?${params}`);
  }

  const service = PuzzledClient.createClient({baseUrl: ''}); // this page's own origin

  // A POST to the service with the elapsed time shown while it runs; resolves with the answer (big
  // integers are strings of digits), or null when the view changed meanwhile; throws the service's
  // error (a PuzzledError, whose message is the one to show).
  async function ask(path, body) {
    const token = viewToken;
    const stopTicker = Answers.elapsedTicker((elapsed) => say(`Asking ${path}… ${elapsed}`));
    document.body.dataset.busy = 'true';
    try {
      const answer = await service.post(path, body);
      return token === viewToken ? answer : null;
    } finally {
      stopTicker();
      if (token === viewToken) delete document.body.dataset.busy;
    }
  }

  // Runs an action, showing its error (if any) in the status line, which is brought into view (on a
  // phone the buttons are below the board and the status above it).
  const guarded = (action) => async (...args) => {
    try {
      await action(...args);
    } catch (error) {
      say(error.message, 'bad');
    }
    const {top, bottom} = $('play-status').getBoundingClientRect();
    if (top < 0 || bottom > innerHeight) $('play-status').scrollIntoView({block: 'nearest'});
  };

  // ---- a board of square buttons, keyboard-navigable ----
  // board(rows, cols, {label, onPlay, onKey}) → {root, cell(r, c), each(fn)}
  function board(rows, cols, {label, onPlay, onKey}) {
    const root = el('div', {className: 'grid-board', role: 'group', ariaLabel: label});
    root.style.setProperty('--cols', cols); // a CSS custom property set through the CSSOM, allowed by the CSP
    const cells = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const button = el('button', {type: 'button', className: 'square', tabIndex: r === 0 && c === 0 ? 0 : -1, dataRow: r, dataCol: c,
          onclick: () => { focus(r, c); onPlay(r, c); }});
        if ((r + c) % 2) button.classList.add('odd');
        cells.push(button);
      }
    }
    root.append(...cells);
    const cell = (r, c) => cells[r * cols + c];
    function focus(r, c) {
      cells.forEach((b) => { b.tabIndex = -1; });
      cell(r, c).tabIndex = 0;
      cell(r, c).focus();
    }
    root.addEventListener('keydown', (event) => {
      const r = Number(event.target.dataset.row), c = Number(event.target.dataset.col);
      if (Number.isNaN(r)) return;
      const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
      if (moves[event.key]) {
        event.preventDefault();
        focus(Math.min(rows - 1, Math.max(0, r + moves[event.key][0])), Math.min(cols - 1, Math.max(0, c + moves[event.key][1])));
      } else if (onKey?.(r, c, event)) {
        event.preventDefault();
      }
    });
    return {root, cell, focus, each: (fn) => cells.forEach((b, i) => fn(b, Math.floor(i / cols), i % cols))};
  }

  const cellName = ([r, c]) => `row ${r + 1}, column ${c + 1}`;
  const list = (items) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
  const pairs = (text) => (text ? text.split(',').map((p) => p.split('.').map(Number)) : []);
  const pairsText = (squares) => squares.map(([r, c]) => `${r}.${c}`).join(',');

  // ---- Sudoku ----
  const SYMBOLS = '123456789ABCDEFGHIJKLMNOP';
  const TECHNIQUES = {
    naked_single: 'Naked single', hidden_single: 'Hidden single', pointing: 'Pointing', box_line_reduction: 'Box/line reduction',
    naked_pair: 'Naked pair', hidden_pair: 'Hidden pair', naked_triple: 'Naked triple', hidden_triple: 'Hidden triple', x_wing: 'X-wing', guess: 'Guess'};

  function sudoku() {
    const box = Math.min(5, Math.max(2, Number(params.get('box')) || 3));
    const size = box * box;
    const state = {puzzle: null, solution: null, seed: params.get('seed'), difficulty: params.get('difficulty') ?? (box === 2 ? 'simple' : 'easy'),
      symmetry: params.get('symmetry') ?? 'none', entries: [], pencil: [], explain: null, at: 0};
    const symbol = (v) => SYMBOLS[v - 1];
    const unitName = (u) => `${u.kind} ${u.index + 1}`;
    const inUnit = (u, r, c) => (u.kind === 'row' ? r === u.index : u.kind === 'column' ? c === u.index
      : Math.floor(r / box) * box + Math.floor(c / box) === u.index);

    const pencilMode = el('input', {type: 'checkbox', id: 'pencil-mode'});
    $('play-controls').append(
      el('form', {className: 'settings', onsubmit: (e) => { e.preventDefault(); generate(null); }},
        choice('sudoku-box', 'Size', [[2, '4 × 4'], [3, '9 × 9'], [4, '16 × 16'], [5, '25 × 25']], box),
        choice('sudoku-difficulty', 'Difficulty', ['simple', 'easy', 'intermediate', 'expert', 'any'].map((d) => [d, d]), state.difficulty),
        choice('sudoku-symmetry', 'Symmetry', ['none', 'rotate90', 'rotate180', 'mirror', 'flip'].map((s) => [s, s]), state.symmetry),
        el('button', {type: 'submit'}, 'New puzzle')),
      el('div', {className: 'buttons'},
        el('button', {type: 'button', id: 'sudoku-check', onclick: guarded(check)}, 'Check'),
        el('button', {type: 'button', id: 'sudoku-hint', onclick: guarded(hint)}, 'Hint'),
        el('button', {type: 'button', id: 'sudoku-explain', onclick: guarded(explain)}, 'Explain the solution'),
        el('span', {className: 'control'}, pencilMode, el('label', {htmlFor: 'pencil-mode'}, 'Pencil marks'))));
    const keysHelp = `Click a cell or move with the arrow keys, then type ${symbol(1)} to ${symbol(size)}; Backspace clears. With "Pencil marks" on, a symbol toggles a mark.`;
    $('play-notes').append(el('p', {className: 'help'}, keysHelp));

    const grid = board(size, size, {label: `Sudoku, ${size} × ${size}`, onPlay: () => {}, onKey: (r, c, event) => {
      const i = r * size + c;
      if (event.key === 'Backspace' || event.key === 'Delete' || event.key === '.' || event.key === '0') { enter(i, 0); return true; }
      const v = SYMBOLS.indexOf(event.key.toUpperCase()) + 1;
      if (v >= 1 && v <= size && event.key.length === 1) { enter(i, v); return true; }
      return false;
    }});
    grid.root.classList.add('sudoku-board');
    grid.root.dataset.box = box;
    grid.each((b, r, c) => {
      if (c % box === box - 1 && c < size - 1) b.classList.add('box-right');
      if (r % box === box - 1 && r < size - 1) b.classList.add('box-bottom');
    });
    const pad = el('div', {className: 'symbol-pad', role: 'group', ariaLabel: 'Symbols'},
      ...Array.from({length: size}, (_, k) => el('button', {type: 'button', onclick: () => enter(selected(), k + 1), ariaLabel: `Enter ${symbol(k + 1)}`}, symbol(k + 1))),
      el('button', {type: 'button', onclick: () => enter(selected(), 0), ariaLabel: 'Clear the cell'}, '⌫'));
    $('play-board').append(grid.root);
    $('play-extra').append(pad);
    const selected = () => {
      const b = grid.root.querySelector('[tabindex="0"]');
      return Number(b.dataset.row) * size + Number(b.dataset.col);
    };

    const current = () => state.entries.map((v, i) => (state.puzzle[i] !== '.' ? state.puzzle[i] : v ? symbol(v) : '.')).join('');

    function paint(highlight = {}) {
      const shown = state.explain ? explainedGrid() : current();
      grid.each((b, r, c) => {
        const i = r * size + c, given = state.puzzle[i] !== '.';
        b.className = b.className.replace(/ ?(given|entered|conflict|unit|focus|place|pencil)\b/g, '');
        b.replaceChildren();
        let what = 'empty';
        if (shown[i] !== '.') {
          b.textContent = shown[i];
          b.classList.add(given ? 'given' : 'entered');
          what = `${shown[i]}${given ? ', given' : ''}`;
        } else if (!state.explain && state.pencil[i].size) {
          b.classList.add('pencil');
          b.append(el('span', {className: 'marks'}, [...state.pencil[i]].sort((x, y) => x - y).map(symbol).join(' ')));
          what = `pencil marks ${[...state.pencil[i]].sort((x, y) => x - y).map(symbol).join(' ')}`;
        }
        if (highlight.units?.some((u) => inUnit(u, r, c))) b.classList.add('unit');
        if (highlight.cells?.some(([hr, hc]) => hr === r && hc === c)) b.classList.add('focus');
        if (highlight.place && highlight.place[0] === r && highlight.place[1] === c) b.classList.add('place');
        if (highlight.conflicts?.has(i)) { b.classList.add('conflict'); what += ', in conflict'; }
        b.ariaLabel = `${cellName([r, c])}: ${what}`;
        b.dataset.value = shown[i];
      });
    }

    function enter(i, v) {
      if (state.explain || !state.puzzle || state.puzzle[i] !== '.') return;
      if (pencilMode.checked && v) {
        if (!state.pencil[i].delete(v)) state.pencil[i].add(v);
      } else {
        state.entries[i] = v;
        state.pencil[i].clear();
      }
      keep();
      paint();
      if (!current().includes('.')) guarded(check)();
    }

    const keep = () => save({box, difficulty: state.difficulty, symmetry: state.symmetry, seed: state.seed,
      grid: state.entries.some(Boolean) ? state.entries.map((v) => (v ? symbol(v) : '.')).join('') : ''});

    async function generate(seed) {
      const chosenBox = Number($('sudoku-box').value);
      state.difficulty = $('sudoku-difficulty').value;
      state.symmetry = $('sudoku-symmetry').value;
      if (chosenBox !== box) { save({box: chosenBox, difficulty: state.difficulty, symmetry: state.symmetry}); show(); return; }
      const answer = await ask('/sudoku/generate', {box, difficulty: state.difficulty, symmetry: state.symmetry, ...(seed ? {seed} : {})});
      if (!answer) return;
      Object.assign(state, {puzzle: answer.puzzle, solution: answer.solution, seed: answer.seed, explain: null,
        entries: Array(size * size).fill(0), pencil: Array.from({length: size * size}, () => new Set())});
      $('play-extra').replaceChildren(pad);
      const typed = params.get('grid');
      if (seed && typed?.length === size * size) {
        [...typed].forEach((s, i) => { if (state.puzzle[i] === '.' && s !== '.') state.entries[i] = SYMBOLS.indexOf(s) + 1; });
      }
      keep();
      paint();
      grid.root.dataset.ready = 'true';
      say(`${/^[aeiou]/.test(answer.rating) ? 'An' : 'A'} ${answer.rating} ${size} × ${size} puzzle with ${answer.givens} givens (seed ${answer.seed}).`);
    }

    async function check() {
      const answer = await ask('/sudoku/check', {puzzle: current()});
      if (!answer) return;
      const conflicts = new Set(answer.conflicts.flatMap((k) => k.cells.map(([r, c]) => r * size + c)));
      paint({conflicts});
      if (answer.solved) say('Solved! Every row, column and box holds each symbol once.', 'good');
      else if (answer.conflicts.length) say(`${answer.conflicts.length} conflict${answer.conflicts.length > 1 ? 's' : ''}: ${list(answer.conflicts.map((k) => `${symbol(k.value)} twice in ${unitName(k.unit)}`))}.`, 'bad');
      else say(`No conflicts; ${answer.filled} of ${size * size} cells filled; ${answer.solvable ? 'still solvable' : 'no longer solvable: an entry is wrong'}.`, answer.solvable ? '' : 'bad');
      $('play-status').dataset.solved = String(answer.solved);
    }

    function describeStep(step) {
      const values = list(step.values.map(symbol)), cells = list(step.cells.map(cellName)), units = step.units.map(unitName);
      const why = {
        naked_single: () => `${cells} can hold only ${values}.`,
        hidden_single: () => `in ${units[0]}, ${values} fits only at ${cells}.`,
        pointing: () => `in ${units[0]}, every place for ${values} lies in ${units[1]}, so ${values} leaves the rest of ${units[1]}.`,
        box_line_reduction: () => `in ${units[0]}, ${values} can only be in ${units[1]}, so ${values} leaves the rest of ${units[1]}.`,
        naked_pair: () => `${cells} hold only ${values} between them, so no other cell of ${list(units)} can.`,
        naked_triple: () => `${cells} hold only ${values} between them, so no other cell of ${list(units)} can.`,
        hidden_pair: () => `in ${list(units)}, ${values} fit only in ${cells}, so those cells hold nothing else.`,
        hidden_triple: () => `in ${list(units)}, ${values} fit only in ${cells}, so those cells hold nothing else.`,
        x_wing: () => `${values} fits in just two places in each of ${list(units)}, on the same lines, so it leaves the rest of those lines.`,
        guess: () => 'no logical step applies, so a value is tried (and undone if it fails).',
      }[step.technique]();
      let text = `${TECHNIQUES[step.technique]}: ${why}`;
      if (step.place) text += ` Place ${symbol(step.place.value)} in ${cellName(step.place.cell)}.`;
      if (step.eliminate?.length) text += ` Remove ${list(step.eliminate.map((e) => `${e.values.map(symbol).join(', ')} from ${cellName(e.cell)}`))}.`;
      return text;
    }

    async function hint() {
      if (state.explain) return;
      const answer = await ask('/sudoku/hint', {puzzle: current()});
      if (!answer) return;
      if (!answer.step) { say('Nothing left to place: the grid is full.'); return; }
      paint({units: answer.step.units, cells: answer.step.cells, place: answer.step.place?.cell});
      say(`Hint — ${describeStep(answer.step)}`);
    }

    // The grid after the explanation's first `at` steps.
    function explainedGrid() {
      const cells = [...state.puzzle];
      state.explain.slice(0, state.at).forEach((s) => { if (s.place) cells[s.place.cell[0] * size + s.place.cell[1]] = symbol(s.place.value); });
      return cells.join('');
    }

    function showExplainStep() {
      const step = state.explain[state.at - 1];
      paint(step ? {units: step.units, cells: step.cells, place: step.place?.cell} : {});
      $('explain-position').textContent = state.at ? `Step ${state.at} of ${state.explain.length}` : `The puzzle, before step 1 of ${state.explain.length}`;
      $('explain-text').textContent = step ? describeStep(step) : 'Press Next to follow the solution one logical step at a time.';
      $('explain-back').disabled = state.at === 0;
      $('explain-next').disabled = state.at === state.explain.length;
    }

    async function explain() {
      const answer = await ask('/sudoku/explain', {puzzle: state.puzzle});
      if (!answer) return;
      state.explain = answer.steps;
      state.at = 0;
      $('play-extra').replaceChildren(el('div', {className: 'explain'},
        el('div', {className: 'buttons'},
          el('button', {type: 'button', id: 'explain-back', onclick: () => { state.at--; showExplainStep(); }}, '← Back'),
          el('span', {id: 'explain-position'}),
          el('button', {type: 'button', id: 'explain-next', onclick: () => { state.at++; showExplainStep(); }}, 'Next →'),
          el('button', {type: 'button', onclick: () => { state.explain = null; $('play-extra').replaceChildren(pad); paint(); say('Back to your grid.'); }}, 'Back to my grid')),
        el('p', {id: 'explain-text', className: 'explain-text', ariaLive: 'polite'})));
      say(`The solution in ${answer.steps.length} steps${answer.unique ? '' : ' (the puzzle has more than one solution)'}.`);
      showExplainStep();
    }

    return guarded(() => generate(state.seed));
  }

  // ---- N-Queens ----
  function queens() {
    const n = Math.min(12, Math.max(4, Number(params.get('n')) || 8));
    let placed = pairs(params.get('q')).filter(([r, c]) => r < n && c < n);
    let solutions = null, at = 0;
    const attacks = ([r1, c1], [r2, c2]) => r1 === r2 || c1 === c2 || Math.abs(r1 - r2) === Math.abs(c1 - c2);
    $('play-controls').append(
      el('form', {className: 'settings', onsubmit: (e) => { e.preventDefault(); save({n: $('queens-n').value}); show(); }},
        choice('queens-n', 'Board', Array.from({length: 9}, (_, k) => [k + 4, `${k + 4} × ${k + 4}`]), n),
        el('button', {type: 'submit'}, 'New board')),
      el('div', {className: 'buttons'},
        el('button', {type: 'button', id: 'queens-verify', onclick: guarded(verify)}, 'Verify'),
        el('button', {type: 'button', id: 'queens-complete', onclick: guarded(complete)}, 'Complete it'),
        el('button', {type: 'button', id: 'queens-all', onclick: guarded(all), disabled: n > 10}, 'All solutions'),
        el('button', {type: 'button', onclick: () => { placed = []; paint(); say('Cleared.'); }}, 'Clear')));
    $('play-notes').append(el('p', {className: 'help'}, `Place ${n} queens so that none attacks another: click a square (or Enter on it) to put or take a queen. Squares a queen attacks are shaded.`));
    const grid = board(n, n, {label: `Chessboard, ${n} × ${n}`, onPlay: (r, c) => {
      const i = placed.findIndex(([pr, pc]) => pr === r && pc === c);
      if (i >= 0) placed.splice(i, 1); else placed.push([r, c]);
      paint();
    }});
    $('play-board').append(grid.root);

    function paint(clashes = new Set()) {
      grid.each((b, r, c) => {
        const queen = placed.some(([pr, pc]) => pr === r && pc === c);
        const attacked = !queen && placed.some((q) => attacks(q, [r, c]));
        b.classList.toggle('queen', queen);
        b.classList.toggle('attacked', attacked);
        b.classList.toggle('clash', clashes.has(`${r}.${c}`));
        b.textContent = queen ? '♛' : '';
        b.ariaLabel = `${cellName([r, c])}${queen ? ', queen' : attacked ? ', attacked' : ''}`;
      });
      save({n, q: pairsText(placed), ...(solutions ? {solution: at + 1} : {})});
      $('play-status').dataset.queens = placed.length;
    }

    async function verify() {
      const answer = await ask('/queens/verify', {n, queens: placed});
      if (!answer) return;
      const clashes = new Set((answer.attacks ?? []).flatMap((a) => a.queens).map(([r, c]) => `${r}.${c}`));
      paint(clashes);
      if (answer.valid) say(`Correct: ${n} queens and no two attack each other.`, 'good');
      else if (answer.attacking_pairs) say(`Not yet: ${answer.attacking_pairs} pair${answer.attacking_pairs > 1 ? 's' : ''} of queens attack each other (outlined): ${list(answer.attacks.map((a) => `${cellName(a.queens[0])} and ${cellName(a.queens[1])} on a ${a.line}`))}.`, 'bad');
      else say(`No queen attacks another, but only ${answer.queens} of ${n} are placed.`);
    }

    async function complete() {
      const answer = await ask('/queens', {n, placed, mode: 'first'});
      if (!answer) return;
      if (!answer.found) { say(`No solution keeps these ${placed.length} queens: take one away.`, 'bad'); return; }
      placed = answer.solution.map((c, r) => [r, c]);
      paint();
      say(`Completed by the service: one of the solutions that keep your queens.`, 'good');
    }

    function showSolution() {
      placed = solutions[at].map((c, r) => [r, c]);
      paint();
      $('solution-position').textContent = `Solution ${at + 1} of ${solutions.length}`;
    }

    async function all() {
      const answer = await ask('/queens', {n});
      if (!answer) return;
      solutions = answer.solutions;
      at = Math.min(solutions.length - 1, Math.max(0, (Number(params.get('solution')) || 1) - 1));
      const step = (by) => () => { at = (at + by + solutions.length) % solutions.length; showSolution(); };
      $('play-extra').replaceChildren(el('div', {className: 'buttons'},
        el('button', {type: 'button', onclick: step(-1)}, '← Previous'),
        el('span', {id: 'solution-position', ariaLive: 'polite'}),
        el('button', {type: 'button', onclick: step(1)}, 'Next →')));
      say(`${solutions.length} solutions on ${n} × ${n}.`);
      showSolution();
    }

    return async () => {
      paint();
      grid.root.dataset.ready = 'true';
      if (params.get('solution')) await guarded(all)();
      else say(placed.length ? `${placed.length} queens placed.` : `Place ${n} queens.`);
    };
  }

  // ---- word ladder ----
  function ladder() {
    const length = Math.min(6, Math.max(3, Number(params.get('length')) || 4));
    const steps = Math.min(9, Math.max(2, Number(params.get('steps')) || 4));
    let puzzle = null, words = (params.get('w') ?? '').split(',').filter(Boolean);
    $('play-controls').append(
      el('form', {className: 'settings', onsubmit: (e) => { e.preventDefault(); save({length: $('ladder-length').value, steps: $('ladder-steps').value}); show(); }},
        choice('ladder-length', 'Letters', [3, 4, 5, 6].map((k) => [k, `${k} letters`]), length),
        choice('ladder-steps', 'Difficulty', [[3, 'easy (3 steps)'], [4, 'fair (4 steps)'], [6, 'hard (6 steps)'], [8, 'very hard (8 steps)']], steps),
        el('button', {type: 'submit'}, 'New puzzle')),
      el('div', {className: 'buttons'},
        el('button', {type: 'button', id: 'ladder-neighbours', onclick: guarded(neighbours)}, 'Neighbours'),
        el('button', {type: 'button', id: 'ladder-verify', onclick: guarded(verify)}, 'Check ladder'),
        el('button', {type: 'button', id: 'ladder-reveal', onclick: guarded(async () => { if (await reveal('The shortest ladders:')) say('The shortest ladders are below yours.'); })}, 'Give up')));
    $('play-notes').append(el('p', {className: 'help'}, 'Change one letter at a time, each step a common English word. Type a word and press Enter; "Neighbours" lists the words one letter away from your last word.'));
    const rungs = el('ol', {className: 'ladder play-ladder', id: 'ladder-rungs'}, // the ends' places, kept while the puzzle comes
      el('li', {className: 'end'}, '…'), el('li', {className: 'gap', ariaHidden: 'true'}, '…'), el('li', {className: 'end'}, '…'));
    const input = el('input', {type: 'text', id: 'ladder-word', autocomplete: 'off', spellcheck: false, autocapitalize: 'none', maxLength: 64});
    const form = el('form', {className: 'next-word', onsubmit: (e) => { e.preventDefault(); add(input.value); }},
      el('label', {htmlFor: 'ladder-word'}, 'Next word'), input, el('button', {type: 'submit'}, 'Add'));
    $('play-board').append(el('div', {className: 'ladder-board'}, rungs, form));

    const keep = () => save({length, steps, seed: puzzle.seed, w: words.join(',')});
    function paint() {
      rungs.replaceChildren(el('li', {className: 'end'}, puzzle.from),
        ...words.map((w, i) => el('li', {}, w, ' ', el('button', {type: 'button', className: 'small', ariaLabel: `Remove ${w}`, onclick: () => { words.splice(i, 1); paint(); }}, '×'))),
        el('li', {className: 'gap', ariaHidden: 'true'}, '…'),
        el('li', {className: 'end', value: words.length + 2}, puzzle.to));
      keep();
    }
    const ladderOf = () => [puzzle.from, ...words, ...(words.at(-1) === puzzle.to ? [] : [puzzle.to])];

    function add(text) {
      const word = text.trim().toLowerCase();
      if (!word) return;
      if ([...word].length !== [...puzzle.from].length) { say(`A word of ${[...puzzle.from].length} letters, please.`, 'bad'); return; }
      input.value = '';
      if (word !== puzzle.to) words.push(word);
      paint();
      if (word === puzzle.to) guarded(verify)();
      else say(`${words.length} step${words.length > 1 ? 's' : ''} so far.`);
    }

    async function neighbours() {
      const word = words.at(-1) ?? puzzle.from;
      const answer = await ask('/word-ladder/neighbours', {word, dictionary: 'common'});
      if (!answer) return;
      $('play-extra').replaceChildren(el('p', {}, `${answer.total} words one letter away from `, el('strong', {}, word), ':'),
        el('p', {className: 'neighbours'}, answer.neighbours.join(' ')));
      say(`Neighbours of ${word} listed below the ladder.`);
    }

    // Lists the shortest ladders; false when the view changed meanwhile. The caller then says what
    // they show (the status line held the wait for them).
    async function reveal(heading) {
      const answer = await ask('/word-ladder', {from: puzzle.from, to: puzzle.to, all: true, dictionary: 'common'});
      if (!answer) return false;
      $('play-extra').replaceChildren(el('p', {}, heading),
        el('div', {className: 'ladders'}, ...answer.ladders.slice(0, 12).map((l) => el('ol', {className: 'ladder'}, ...l.map((w) => el('li', {}, w))))),
        ...(answer.ladders.length > 12 ? [el('p', {}, `… and ${answer.ladders.length - 12} more.`)] : []));
      return true;
    }

    async function verify() {
      const answer = await ask('/word-ladder/verify', {ladder: ladderOf(), dictionary: 'common'});
      if (!answer) return;
      $('play-status').dataset.valid = String(answer.valid);
      if (!answer.valid) {
        const where = answer.problem === 'not_one_letter' ? `${answer.from} → ${answer.to} changes more than one letter`
          : answer.problem === 'unknown_word' ? `${answer.word ?? 'a word'} is not in the dictionary` : answer.problem.replace(/_/g, ' ');
        say(`Not yet: ${where}.`, 'bad');
        return;
      }
      if (!await reveal(`The shortest ladders (${answer.shortest_ladders}):`)) return;
      say(`Solved in ${answer.steps} steps${answer.shortest ? ': as short as it gets!' : `; the shortest take ${answer.shortest_steps}.`}`, 'good');
    }

    return guarded(async () => {
      const seed = params.get('seed');
      const answer = await ask('/word-ladder/puzzle', {length, steps, dictionary: 'common', ...(seed ? {seed} : {})});
      if (!answer) return;
      if (!answer.found) { say('No puzzle of that kind in the dictionary; try fewer steps.', 'bad'); return; }
      puzzle = answer;
      paint();
      rungs.dataset.ready = 'true';
      say(`From ${puzzle.from} to ${puzzle.to}: the shortest ladder takes ${steps} steps.`);
    });
  }

  // ---- knight's tour ----
  function knight() {
    const n = Math.min(8, Math.max(5, Number(params.get('n')) || 5));
    let path = pairs(params.get('p')).filter(([r, c]) => r < n && c < n), watching = 0;
    const JUMPS = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
    const visited = (r, c) => path.some(([pr, pc]) => pr === r && pc === c);
    const movesFrom = ([r, c]) => JUMPS.map(([dr, dc]) => [r + dr, c + dc]).filter(([a, b]) => a >= 0 && b >= 0 && a < n && b < n && !visited(a, b));
    $('play-controls').append(
      el('form', {className: 'settings', onsubmit: (e) => { e.preventDefault(); save({n: $('knight-n').value}); show(); }},
        choice('knight-n', 'Board', [5, 6, 7, 8].map((k) => [k, `${k} × ${k}`]), n),
        el('button', {type: 'submit'}, 'New board')),
      el('div', {className: 'buttons'},
        el('button', {type: 'button', id: 'knight-hint', onclick: guarded(hint)}, 'Hint'),
        el('button', {type: 'button', onclick: () => { path.pop(); paint(); }}, 'Undo'),
        el('button', {type: 'button', id: 'knight-verify', onclick: guarded(verify)}, 'Verify'),
        el('button', {type: 'button', id: 'knight-watch', onclick: guarded(watch)}, "Watch the service's tour")));
    $('play-notes').append(el('p', {className: 'help'}, 'Visit every square once with knight moves. Click a square to start, then one of the marked squares a knight can reach.'));
    const grid = board(n, n, {label: `Chessboard, ${n} × ${n}`, onPlay: (r, c) => {
      if (watching) return;
      if (path.length && !movesFrom(path.at(-1)).some(([a, b]) => a === r && b === c)) { say(`${cellName([r, c])} is not a knight move away from ${cellName(path.at(-1))}, or already visited.`, 'bad'); return; }
      path.push([r, c]);
      paint();
      if (path.length === n * n || !movesFrom(path.at(-1)).length) guarded(verify)();
      else say(`${path.length} of ${n * n} squares visited; ${movesFrom(path.at(-1)).length} to go to next.`);
    }});
    $('play-board').append(grid.root);

    function paint(marked = null) {
      const legal = path.length ? movesFrom(path.at(-1)) : [];
      grid.each((b, r, c) => {
        const step = path.findIndex(([pr, pc]) => pr === r && pc === c);
        const isLegal = legal.some(([a, z]) => a === r && z === c);
        b.textContent = step >= 0 ? String(step + 1) : '';
        b.classList.toggle('visited', step >= 0);
        b.classList.toggle('knight', step >= 0 && step === path.length - 1);
        b.classList.toggle('legal', isLegal);
        b.classList.toggle('hinted', Boolean(marked && marked[0] === r && marked[1] === c));
        b.ariaLabel = `${cellName([r, c])}${step >= 0 ? `, move ${step + 1}${step === path.length - 1 ? ', the knight' : ''}` : isLegal ? ', a move' : ''}`;
      });
      save({n, p: pairsText(path)});
    }

    // Warnsdorff's rule: of the squares the knight can reach, the one with the fewest moves onward.
    function hint() {
      if (!path.length) { say('Any square can start; a corner is a good one.'); return; }
      const options = movesFrom(path.at(-1)).map((m) => { path.push(m); const onward = movesFrom(m).length; path.pop(); return {m, onward}; });
      if (!options.length) { say('No move left: undo a few moves.', 'bad'); return; }
      const best = options.reduce((a, b) => (b.onward < a.onward ? b : a));
      paint(best.m);
      say(`Warnsdorff's rule: go to ${cellName(best.m)}, which has only ${best.onward} move${best.onward === 1 ? '' : 's'} onward, the fewest.`);
    }

    async function verify() {
      const answer = await ask('/knight-tour/verify', {rows: n, cols: n, path});
      if (!answer) return;
      $('play-status').dataset.valid = String(answer.valid);
      if (answer.valid) say(`A knight's tour: all ${n * n} squares visited${answer.closed ? ', and it closes on the start' : ''}. Well done!`, 'good');
      else if (answer.problem === 'missing_square') say(`Not a tour yet: ${answer.missing} square${answer.missing > 1 ? 's' : ''} unvisited${movesFrom(path.at(-1) ?? [0, 0]).length ? '' : ' and no move left: undo some moves'}.`, 'bad');
      else say(`Not a tour: ${answer.problem.replace(/_/g, ' ')}.`, 'bad');
    }

    async function watch() {
      const start = path[0] ?? [0, 0];
      const answer = await ask('/knight-tour', {rows: n, cols: n, start});
      if (!answer) return;
      if (!answer.found) { say(`No tour starts at ${cellName(start)} on ${n} × ${n}.`, 'bad'); return; }
      const token = ++watching, tour = answer.path;
      say(`The service's tour from ${cellName(start)}, move by move.`);
      for (let i = 1; i <= tour.length && token === watching; i++) {
        path = tour.slice(0, i);
        paint();
        await new Promise((resume) => setTimeout(resume, 120));
      }
      if (token === watching) { watching = 0; await verify(); }
    }

    return async () => {
      paint();
      grid.root.dataset.ready = 'true';
      say(path.length ? `${path.length} of ${n * n} squares visited.` : 'Click a square to start.');
    };
  }

  // ---- rank explorer ----
  function ranks() {
    const kind = params.get('kind') === 'combination' ? 'combination' : 'permutation';
    const items = params.get('items') || 'abcdefgh';
    const k = Math.max(0, Number(params.get('k')) || Math.min(3, [...items].length));
    let rank = /^\d+$/.test(params.get('rank') ?? '') ? BigInt(params.get('rank')) : 0n, total = null;
    const rankInput = el('input', {type: 'text', id: 'rank-value', inputMode: 'numeric', value: rank.toString(), autocomplete: 'off'});
    const arrangementInput = el('input', {type: 'text', id: 'rank-arrangement', autocomplete: 'off', spellcheck: false});
    $('play-controls').append(
      el('form', {className: 'settings', onsubmit: (e) => { e.preventDefault(); save({kind: $('rank-kind').value, items: $('rank-items').value, k: $('rank-k').value}); show(); }},
        choice('rank-kind', 'Arrangements', [['permutation', 'permutations'], ['combination', 'combinations']], kind),
        el('span', {className: 'control'}, el('label', {htmlFor: 'rank-items'}, 'Items'), el('input', {type: 'text', id: 'rank-items', value: items, spellcheck: false})),
        el('span', {className: 'control', id: 'rank-k-control', hidden: kind !== 'combination'}, el('label', {htmlFor: 'rank-k'}, 'Chosen (k)'), el('input', {type: 'text', id: 'rank-k', inputMode: 'numeric', value: k, size: 3})),
        el('button', {type: 'submit'}, 'Explore')),
      el('form', {className: 'settings', onsubmit: (e) => { e.preventDefault(); goTo(rankInput.value.trim()); }},
        el('span', {className: 'control wide'}, el('label', {htmlFor: 'rank-value'}, 'Rank'), rankInput),
        el('button', {type: 'submit'}, 'Show')),
      el('div', {className: 'buttons'},
        el('button', {type: 'button', id: 'rank-first', onclick: () => goTo('0')}, '« First'),
        el('button', {type: 'button', id: 'rank-previous', onclick: () => goTo((rank - 1n).toString())}, '← Previous'),
        el('button', {type: 'button', id: 'rank-next', onclick: () => goTo((rank + 1n).toString())}, 'Next →'),
        el('button', {type: 'button', id: 'rank-last', onclick: () => total !== null && goTo((total - 1n).toString())}, 'Last »')),
      el('form', {className: 'settings', onsubmit: (e) => { e.preventDefault(); guarded(rankOf)(arrangementInput.value); }},
        el('span', {className: 'control wide'}, el('label', {htmlFor: 'rank-arrangement'}, 'Arrangement'), arrangementInput),
        el('button', {type: 'submit'}, 'Rank it')));
    $('rank-kind').addEventListener('change', () => { $('rank-k-control').hidden = $('rank-kind').value !== 'combination'; });
    $('play-notes').append(el('p', {className: 'help'}, kind === 'permutation'
      ? 'Every ordering of the items has a rank: 0 for the items in order, n! − 1 for the reverse. Move through the ranks, or type an ordering to see its rank. Ranks of any size are exact.'
      : 'Every choice of k of the items has a rank in lexicographic order. Move through the ranks, or type a choice to see its rank.'));
    const tiles = el('div', {className: 'tiles', id: 'rank-tiles', ariaLive: 'polite'});
    const figures = el('p', {className: 'rank-figures', id: 'rank-figures'});
    $('play-board').append(el('div', {className: 'rank-board'}, tiles, figures));
    const unrankBody = (r) => (kind === 'permutation' ? {text: items, rank: r} : {text: items, k, rank: r});

    function paint(arrangement) {
      tiles.replaceChildren(...[...arrangement].map((s) => el('span', {className: 'tile'}, s)));
      arrangementInput.value = arrangement;
      rankInput.value = rank.toString();
      figures.textContent = `Rank ${rank.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} ${kind}s (0 to ${(total - 1n).toLocaleString('en-US')}).`;
      $('rank-previous').disabled = rank === 0n;
      $('rank-next').disabled = rank === total - 1n;
      save({kind, items, k: kind === 'combination' ? k : '', rank: rank.toString()});
      tiles.dataset.rank = rank.toString();
    }

    async function goTo(text) {
      if (!/^\d+$/.test(text)) { say('A rank is a whole number, 0 or more.', 'bad'); return; }
      const answer = await ask(`/${kind}/unrank`, unrankBody(text));
      if (!answer) return;
      rank = BigInt(text);
      total = BigInt(answer.total);
      paint(answer[kind]);
      say(`The ${kind} of rank ${rank.toLocaleString('en-US')}.`);
    }

    async function rankOf(arrangement) {
      const body = kind === 'permutation' ? {text: arrangement, pool_text: items} : {text: items, combination_text: arrangement};
      const answer = await ask(`/${kind}/rank`, body);
      if (!answer) return;
      rank = BigInt(answer.rank);
      total = BigInt(answer.total);
      paint(arrangement);
      say(`${arrangement} has rank ${rank.toLocaleString('en-US')}.`);
    }

    return guarded(async () => {
      await goTo(rank.toString());
      tiles.dataset.ready = 'true';
    });
  }

  const GAMES = {
    sudoku: {title: 'Sudoku', make: sudoku, intro: 'Fill the grid so that every row, column and box holds each symbol once. The service makes the puzzle, checks it, gives hints and explains the whole solution step by step.'},
    queens: {title: 'N-Queens', make: queens, intro: 'The service judges your board, completes it, and lists every solution of a small board.'},
    ladder: {title: 'Word ladder', make: ladder, intro: 'Climb from the first word to the last, one letter at a time. The service sets the puzzle, lists neighbours, judges your ladder and shows the shortest ones.'},
    knight: {title: "Knight's tour", make: knight, intro: 'Move a knight over every square of the board exactly once. The service judges your tour, or shows one of its own.'},
    ranks: {title: 'Rank explorer', make: ranks, intro: 'Permutations and combinations in order, each with its rank: the service turns ranks into arrangements and back, exactly, however big.'},
  };

  // ---- the front page (an address with no view after #) ----
  // The puzzle of the day is the Sudoku of DAY_SUDOKU whose seed is the UTC date (2026-12-02 gives
  // 20261202): every visitor gets the same one that day, and its card opens it in the Sudoku mode.
  // The cards' pictures are the service's SVG drawings (<img>, so the browser keeps them by their
  // ETags) or drawn here from its JSON; the queens board and the rank change with the day too. The
  // cards are index.html's, on screen before this runs; here each picture fills the box playground.css
  // sized for it, and the date its one line. The date is written out here, not with Intl: building a
  // time-zone formatter costs a phone's CPU a long task before the pictures are asked for.
  const DAY_SUDOKU = {box: 3, difficulty: 'easy', symmetry: 'none'};
  const RANK_ITEMS = 'ABCDEFGHIJKLMNOPQRST';
  const RANK_TOTAL = 2432902008176640000n; // 20!
  const RANK_STRIDE = 1000000000000000003n; // a day's seed times this, modulo 20!: the day's rank
  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  const daySeed = (now) => String(now.getUTCFullYear() * 10000 + (now.getUTCMonth() + 1) * 100 + now.getUTCDate());
  const dayName = (now) => `${now.getUTCDate()} ${MONTHS[now.getUTCMonth()]} ${now.getUTCFullYear()}`;
  const grouped = (digits) => digits.replace(/\B(?=(\d{3})+$)/g, ',');
  let homeSeed = null; // the day whose pictures are drawn

  // Resolves after the browser's next paint: a frame's callbacks run before it is painted, a task
  // queued from one of them after.
  const nextPaint = () => new Promise((resume) => requestAnimationFrame(() => setTimeout(resume)));

  // Fills a picture box with `what()`'s node, or with the service's error. Asked for after the next
  // paint, so that on a first load the front page's HTML is on screen before any request or drawing.
  async function picture(box, what) {
    await nextPaint();
    try {
      box.replaceChildren(await what());
    } catch (error) {
      box.replaceChildren(el('span', {className: 'card-error'}, error.message));
    }
  }

  // One of the service's SVG drawings (all are 328 x 328 or smaller squares).
  function drawing(path, query, alt) {
    const image = el('img', {src: `${path}?${new URLSearchParams(query)}`, alt, width: 328, height: 328});
    image.addEventListener('error', () => image.replaceWith(el('span', {className: 'card-error'}, `${path} did not answer`)));
    return image;
  }

  function showHome() {
    document.title = 'puzzled playground';
    document.querySelectorAll('nav.modes a').forEach((a) => a.removeAttribute('aria-current'));
    document.body.dataset.view = 'home';
    const now = new Date(), seed = daySeed(now);
    if (seed === homeSeed) return;
    homeSeed = seed;
    const day = dayName(now);
    const box = (name) => document.querySelector(`[data-picture=${name}]`);
    $('today').href = `#play/sudoku?${new URLSearchParams({...DAY_SUDOKU, seed})}`;
    $('today').dataset.seed = seed;
    $('today-date').textContent = `${day} · seed ${seed}`;
    picture($('today-picture'), async () => {
      const answer = await service.get('/sudoku/generate', {...DAY_SUDOKU, seed});
      $('today-rating').textContent = `${answer.rating}, ${answer.givens} givens`;
      $('today').dataset.puzzle = answer.puzzle;
      return Pictures.sudoku(answer.puzzle, `The Sudoku of ${day}`);
    });
    picture(box('sudoku'), () => drawing('/sudoku/generate', {box: 2, difficulty: 'simple', seed, format: 'svg'}, 'A 4 × 4 Sudoku drawn by the service'));
    picture(box('queens'), () => drawing('/queens', {n: 8, mode: 'solutions', offset: Number(seed) % 92, format: 'svg'}, 'Eight queens, none attacking another, drawn by the service'));
    picture(box('knight'), () => drawing('/knight-tour', {n: 8, format: 'svg'}, "A knight's tour of the 8 × 8 board drawn by the service"));
    picture(box('ladder'), async () => Pictures.ladder((await service.get('/word-ladder', {from: 'cold', to: 'warm'})).ladder));
    picture(box('ranks'), async () => {
      const rank = String(BigInt(seed) * RANK_STRIDE % RANK_TOTAL);
      const answer = await service.get('/permutation/unrank', {text: RANK_ITEMS, rank});
      return el('span', {className: 'rank-card'},
        el('span', {className: 'tiles'}, ...Array.from(answer.permutation, (letter) => el('span', {className: 'tile'}, letter))),
        el('span', {className: 'rank-figures', dataRank: rank}, el('span', {}, `rank ${grouped(rank)}`), el('span', {}, `of 20! = ${grouped(answer.total)}`)));
    });
    picture(box('endpoint'), async () => {
      const request = {n: 8, mode: 'count'};
      const answer = await service.post('/queens', request);
      return el('span', {className: 'example'}, el('code', {}, 'POST /queens'), el('code', {}, JSON.stringify(request)),
        el('code', {className: 'answered'}, `→ 200 ${JSON.stringify(answer).replaceAll(',"', ', "')}`));
    });
  }

  // Builds the view of the address (a game, or the front page); a game's first request follows.
  function show() {
    if (/^#\//.test(location.hash)) return; // the endpoint view (playground.js)
    const match = /^#play\/(\w+)\??(.*)$/.exec(location.hash);
    if (!match) { viewToken++; showHome(); return; }
    viewToken++; // answers to the previous view's requests are dropped
    delete document.body.dataset.busy;
    game = GAMES[match[1]] ? match[1] : 'sudoku';
    params = new URLSearchParams(match[2]);
    const {title, intro, make} = GAMES[game];
    for (const id of ['play-controls', 'play-notes', 'play-board', 'play-extra']) $(id).replaceChildren();
    $('play-title').textContent = title;
    $('play-intro').textContent = intro;
    $('play-board').className = `play-board game-${game}`;
    document.title = `${title} — puzzled playground`;
    document.querySelectorAll('nav.modes a').forEach((a) => {
      if (a.getAttribute('href') === `#play/${game}`) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    });
    say('');
    for (const key of Object.keys($('play-status').dataset)) delete $('play-status').dataset[key];
    const begin = make();
    document.body.dataset.view = 'play';
    begin();
  }

  window.addEventListener('hashchange', show);
  show();
})();
