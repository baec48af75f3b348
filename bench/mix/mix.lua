-- The cheap mix of bench/mix/mix.py for wrk: each connection sends the 14 routes in turn, kept alive.
local sudoku = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
local paths = {
  "/shuffle?n=1000&seed=1",
  "/permutations?text=abcdefg",
  "/knight-tour?rows=8&cols=8",
  "/word-ladder?from=cold&to=warm",
  "/sudoku/generate?seed=42",
  "/queens?n=8&mode=first&format=svg",
  "/healthz",
  "/word-ladder/neighbours?word=cold",
  "/no-such-route",
  "/queens?n=0",
  "/queens?n=8&mode=count",
  "/permutation/rank?permutation=3,1,2",
  "/sudoku/check?puzzle=" .. sudoku,
  "/combinations?text=abcdefgh&k=3",
}
local next_path = 0

function init(args)
  next_path = math.random(#paths) - 1
end

function request()
  next_path = next_path % #paths + 1
  return wrk.format("GET", paths[next_path])
end
