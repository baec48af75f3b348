// The playground's pictures: each answer drawn from its JSON (queens boards, knight's tours, word
// ladders, sudoku grids), and the front page's Sudoku and ladder (`sudoku`, `ladder`). Small boards
// are SVG (one element per square, numbered, readable by tests and screen readers); large ones a
// canvas, so a 2000 x 2000 tour is one bitmap, not 4 million nodes.
// Nothing here uses inline styles: colours come from classes in playground.css (the page's CSP).
'use strict';

const Pictures = (() => {
  const SVG = 'http://www.w3.org/2000/svg';
  const SVG_LARGEST_SIDE = 40;   // boards up to this many squares a side are SVG, larger ones canvas
  const NUMBERED_LARGEST_SIDE = 12; // squares carry their move number up to this side
  const CANVAS_PIXELS = 800;

  function element(tag, attributes = {}, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function svgElement(tag, attributes = {}, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // An SVG chequerboard of rows x cols unit squares, with a title for assistive technology.
  function svgBoard(rows, cols, title) {
    const svg = svgElement('svg', {viewBox: `0 0 ${cols} ${rows}`, class: 'board', role: 'img'});
    svg.append(svgElement('title', {}, title));
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        svg.append(svgElement('rect', {x: c, y: r, width: 1, height: 1, class: (r + c) % 2 ? 'dark' : 'light'}));
      }
    }
    return svg;
  }

  // A canvas sized for a rows x cols board; returns [canvas, context, pixels per square].
  function canvasBoard(rows, cols, title) {
    const scale = Math.max(CANVAS_PIXELS / Math.max(rows, cols), 0.1);
    const canvas = element('canvas', {class: 'board', role: 'img', 'aria-label': title,
      width: Math.max(1, Math.round(cols * scale)), height: Math.max(1, Math.round(rows * scale))});
    const context = canvas.getContext('2d');
    context.fillStyle = '#f3efe6';
    context.fillRect(0, 0, canvas.width, canvas.height);
    return [canvas, context, scale];
  }

  // ---- queens ----
  function queensBoard(columns, label) {
    const n = columns.length;
    const title = `${label}: ${n} queens on a ${n} x ${n} board`;
    if (n <= SVG_LARGEST_SIDE) {
      const svg = svgBoard(n, n, title);
      svg.classList.add('queens');
      columns.forEach((col, row) => svg.append(svgElement('circle', {cx: col + 0.5, cy: row + 0.5, r: 0.32, class: 'queen'})));
      return svg;
    }
    const [canvas, context, scale] = canvasBoard(n, n, title);
    context.fillStyle = '#7a2e1d';
    const dot = Math.max(scale, 1);
    columns.forEach((col, row) => context.fillRect(col * scale, row * scale, dot, dot));
    return canvas;
  }

  // A list of solutions with Previous / Next buttons (the page shows one board at a time).
  function solutionPager(solutions, target) {
    let index = 0;
    const holder = element('div', {class: 'pager'});
    const previous = element('button', {type: 'button'}, '◀ Previous');
    const next = element('button', {type: 'button'}, 'Next ▶');
    const where = element('span', {class: 'page-number', 'aria-live': 'polite'});
    const picture = element('div', {class: 'picture'});
    function show() {
      where.textContent = `solution ${index + 1} of ${solutions.length}`;
      picture.replaceChildren(queensBoard(solutions[index], `Solution ${index + 1}`));
      previous.disabled = index === 0;
      next.disabled = index === solutions.length - 1;
    }
    previous.addEventListener('click', () => { index--; show(); });
    next.addEventListener('click', () => { index++; show(); });
    holder.append(previous, where, next);
    target.append(holder, picture);
    show();
  }

  function drawQueens(answer, target) {
    if (Array.isArray(answer.solutions) && answer.solutions.length > 0) solutionPager(answer.solutions, target);
    else if (Array.isArray(answer.solution)) target.append(queensBoard(answer.solution, 'The solution'));
    else return false;
    return true;
  }

  // ---- knight's tour ----
  // The tour as a list of [row, col], from a `path` or from a numbered `board`.
  function tourPath(answer) {
    if (Array.isArray(answer.path)) return answer.path;
    if (!Array.isArray(answer.board)) return null;
    const path = [];
    answer.board.forEach((line, row) => line.forEach((step, col) => { path[Number(step) - 1] = [row, col]; }));
    return path;
  }

  // Draws moves [from, to) of the tour; small boards as SVG lines and numbers, large ones on a canvas.
  function tourDrawer(rows, cols, path, closed) {
    const title = `A knight's tour of ${path.length} moves on a ${rows} x ${cols} board`;
    if (Math.max(rows, cols) <= SVG_LARGEST_SIDE) {
      const svg = svgBoard(rows, cols, title);
      svg.classList.add('tour');
      const numbered = Math.max(rows, cols) <= NUMBERED_LARGEST_SIDE;
      const moves = svgElement('g', {class: 'moves'}), steps = svgElement('g', {class: 'steps'}); // numbers above lines
      svg.append(moves, steps);
      return {picture: svg, draw(from, to) {
        for (let i = from; i < to; i++) {
          const [r, c] = path[i];
          if (i > 0) {
            const [pr, pc] = path[i - 1];
            moves.append(svgElement('line', {x1: pc + 0.5, y1: pr + 0.5, x2: c + 0.5, y2: r + 0.5, class: 'move'}));
          }
          if (numbered) steps.append(svgElement('text', {x: c + 0.5, y: r + 0.5, class: 'step'}, i + 1));
          else steps.append(svgElement('circle', {cx: c + 0.5, cy: r + 0.5, r: 0.15, class: 'visit'}));
        }
        if (to === path.length && closed && path.length > 1) {
          const [fr, fc] = path[0], [lr, lc] = path[path.length - 1];
          moves.append(svgElement('line', {x1: lc + 0.5, y1: lr + 0.5, x2: fc + 0.5, y2: fr + 0.5, class: 'move closing'}));
        }
      }};
    }
    // A big board is too dense for one colour: the hue follows the tour, blue at the start to red at
    // the end, so the order in which the board is covered shows.
    const [canvas, context, scale] = canvasBoard(rows, cols, `${title}; the colour goes from blue (first moves) to red (last moves)`);
    context.lineWidth = Math.max(Math.min(scale / 4, 2), 0.3);
    return {picture: canvas, legend: 'Colour follows the tour: blue for the first moves, red for the last.', draw(from, to) {
      context.strokeStyle = `hsl(${Math.round(240 * (1 - from / path.length))}, 75%, 42%)`;
      context.beginPath();
      for (let i = Math.max(from, 1); i < to; i++) {
        context.moveTo((path[i - 1][1] + 0.5) * scale, (path[i - 1][0] + 0.5) * scale);
        context.lineTo((path[i][1] + 0.5) * scale, (path[i][0] + 0.5) * scale);
      }
      context.stroke();
    }};
  }

  // The tour drawn move by move (about four seconds whatever its length), with a Pause button.
  function drawKnightTour(answer, target) {
    const path = tourPath(answer);
    if (!path || path.length === 0) return false;
    const rows = Number(answer.rows), cols = Number(answer.cols);
    const drawer = tourDrawer(rows, cols, path, answer.closed === true);
    delete target.dataset.tourDone; // set again when this tour is drawn to its end
    const perFrame = Math.max(1, Math.ceil(path.length / 240));
    let drawn = 0, paused = false;
    const pause = element('button', {type: 'button', class: 'pause'}, 'Pause');
    const progress = element('span', {class: 'tour-progress', 'aria-live': 'off'});
    function frame() {
      if (paused || !drawer.picture.isConnected && drawn > 0) return;
      const to = Math.min(path.length, drawn + perFrame);
      drawer.draw(drawn, to);
      drawn = to;
      progress.textContent = `move ${drawn} of ${path.length}`;
      if (drawn < path.length) requestAnimationFrame(frame);
      else { pause.disabled = true; target.dataset.tourDone = 'true'; }
    }
    pause.addEventListener('click', () => {
      paused = !paused;
      pause.textContent = paused ? 'Resume' : 'Pause';
      pause.setAttribute('aria-pressed', String(paused));
      if (!paused) requestAnimationFrame(frame);
    });
    const controls = element('div', {class: 'pager'});
    controls.append(pause, progress);
    target.append(controls, drawer.picture);
    if (drawer.legend) target.append(element('p', {class: 'legend'}, drawer.legend));
    requestAnimationFrame(frame);
    return true;
  }

  // ---- word ladder ----
  // One ladder as a column of words, the letter that changed at each step marked.
  function ladderList(words) {
    const list = element('ol', {class: 'ladder'});
    words.forEach((word, index) => {
      const item = element('li');
      const letters = Array.from(word), before = index > 0 ? Array.from(words[index - 1]) : null;
      letters.forEach((letter, at) => {
        const changed = before !== null && before[at] !== letter;
        item.append(changed ? element('mark', {title: `changed from ${before[at]}`}, letter) : document.createTextNode(letter));
      });
      list.append(item);
    });
    return list;
  }

  function drawWordLadder(answer, target) {
    const ladders = Array.isArray(answer.ladders) ? answer.ladders : Array.isArray(answer.ladder) ? [answer.ladder] : null;
    if (!ladders || ladders.length === 0) return false;
    const holder = element('div', {class: 'ladders'});
    ladders.forEach((words) => holder.append(ladderList(words)));
    target.append(holder);
    return true;
  }

  // ---- sudoku ----
  // Cells of a grid given as a string (row-major, '.' or '0' empty) or as rows of numbers.
  function sudokuCells(grid) {
    if (Array.isArray(grid)) return grid.flat().map(Number);
    if (typeof grid !== 'string') return null;
    const text = grid.replace(/\s/g, '');
    const side = Math.round(Math.sqrt(text.length));
    if (side * side !== text.length || side > 9) return null; // larger grids use more than one character per cell
    return Array.from(text, (ch) => (ch === '.' || ch === '0' ? 0 : parseInt(ch, 36)));
  }

  function sudokuGrid(cells, givens, title) {
    const side = Math.round(Math.sqrt(cells.length)), box = Math.round(Math.sqrt(side));
    const svg = svgBoard(0, 0, title);
    svg.setAttribute('viewBox', `0 0 ${side} ${side}`);
    svg.classList.add('sudoku');
    for (let i = 0; i < cells.length; i++) {
      const r = Math.floor(i / side), c = i % side;
      svg.append(svgElement('rect', {x: c, y: r, width: 1, height: 1, class: 'cell'}));
      if (cells[i] > 0) svg.append(svgElement('text', {x: c + 0.5, y: r + 0.5, class: givens && givens[i] > 0 ? 'given' : 'filled'}, cells[i]));
    }
    for (let k = 0; k <= side; k += box) {
      svg.append(svgElement('line', {x1: 0, y1: k, x2: side, y2: k, class: 'box-line'}));
      svg.append(svgElement('line', {x1: k, y1: 0, x2: k, y2: side, class: 'box-line'}));
    }
    return svg;
  }

  function drawSudoku(answer, target, request) {
    const puzzle = sudokuCells(answer.puzzle ?? request.puzzle ?? request.rows);
    const solution = sudokuCells(answer.solution);
    if (!puzzle && !solution) return false;
    const holder = element('div', {class: 'sudokus'});
    if (puzzle) holder.append(sudokuGrid(puzzle, puzzle, 'The puzzle'));
    if (solution) holder.append(sudokuGrid(solution, puzzle, 'The solution'));
    target.append(holder);
    return true;
  }

  const drawers = {
    '/queens': drawQueens,
    '/knight-tour': drawKnightTour,
    '/word-ladder': drawWordLadder,
    '/sudoku/generate': drawSudoku,
    '/sudoku/solve': drawSudoku,
  };

  // Draws the answer of `path` into `target`; false when there is nothing to draw.
  function draw(path, answer, target, request) {
    const drawer = drawers[path];
    return drawer !== undefined && answer !== null && typeof answer === 'object' && drawer(answer, target, request);
  }

  // A grid given as a string (row-major, '.' empty) as an SVG picture, without the answer's frame.
  const sudoku = (grid, title) => sudokuGrid(sudokuCells(grid), sudokuCells(grid), title);

  return {draw, sudoku, ladder: ladderList};
})();
