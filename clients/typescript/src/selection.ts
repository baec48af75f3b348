// Which request selects which answer: the one place that says, for every operation whose 200 answer
// is a choice (a `oneOf` of JSON answers, or JSON or a drawing or text), which request fields pick
// it, and `SelectedAnswer`, the type that reads this table, so that `get`, `post` and `progress`
// resolve with exactly the answer their request selects (`mode: 'count'` of /queens gives the
// QueensCount answer, no narrowing by hand). openapi-typescript drops vendor extensions, so the table
// lives here; test/selection_spec.test.ts holds it to openapi.yaml both ways (every choice of the spec
// is in it, and everything in it is in the spec), and test/answer_types.test.ts to the live service.
// The same for the lines of a stream: `LINE_SELECTION` names the endpoints whose NDJSON lines are
// made of the request's own values, and `SelectedLine` types each line by them (`text` gives strings,
// `items` arrays of the items' type).
import type { Answer, KeysOfUnion, NdjsonLine, Operation, paths, StreamPath } from './spec.js';

/** A field whose value picks the kind of the JSON answer. */
interface KindRule {
  field: string;
  /** The value the service takes when the field is absent (the spec's `default`). */
  default: string | number | boolean;
  /** The kind each value gives. */
  kinds: Readonly<Record<string, string>>;
  /** The kind of every other value (a `count` above 1). */
  otherwise?: string;
}

interface SelectionRule {
  kind?: KindRule;
  /** No field picks the kind: the data does (whether a knight's tour exists). */
  kindFromData?: true;
  /** A field whose presence lets the data answer these kinds too (placed queens that attack each other). */
  present?: { field: string; kinds: readonly string[] };
  /** The field value that asks for a drawing (a string), which is answered with the JSON answer
   * instead when there is nothing to draw (`found` false). */
  drawing?: { field: string; value: string };
  /** A text/plain body is answered with text lines (a string). */
  text?: true;
}

export const ANSWER_SELECTION = {
  '/shuffle': { kind: { field: 'count', default: 1, kinds: { '1': 'shuffle' }, otherwise: 'shuffles' } },
  '/permutations': { kind: { field: 'count_only', default: false, kinds: { false: 'permutations', true: 'permutations_total' } } },
  '/combinations': { kind: { field: 'count_only', default: false, kinds: { false: 'combinations', true: 'combinations_total' } } },
  '/queens': {
    kind: { field: 'mode', default: 'solutions', kinds: { solutions: 'queens_solutions', count: 'queens_count', first: 'queens_first' } },
    present: { field: 'placed', kinds: ['queens_conflict'] },
    drawing: { field: 'format', value: 'svg' },
  },
  '/knight-tour': { kindFromData: true, drawing: { field: 'format', value: 'svg' } },
  '/sudoku/generate': {
    kind: { field: 'mode', default: 'puzzle', kinds: { puzzle: 'sudoku_puzzle', grid: 'sudoku_grid' } },
    drawing: { field: 'format', value: 'svg' },
  },
  '/sudoku/solve': { drawing: { field: 'format', value: 'svg' }, text: true },
  '/word-ladder': { kind: { field: 'all', default: false, kinds: { false: 'word_ladder_one', true: 'word_ladder_all' } } },
} as const satisfies Partial<Record<keyof paths, SelectionRule>>;

type Rules = typeof ANSWER_SELECTION;

// The value of field F in request R: its type where R has it (with the default too where it is
// optional), the default where R lacks it.
type FieldValue<R, F extends string, Default> = R extends unknown
  ? F extends keyof R
    ? Record<string, never> extends Pick<R, F> ? Exclude<R[F], undefined> | Default : R[F]
    : Default
  : never;

// The kinds a field value picks: each literal its own (or the rule's `otherwise`), a wide type all of them.
type KindsOf<V, Rule extends KindRule> = string extends V ? AllKinds<Rule>
  : number extends V ? AllKinds<Rule>
  : V extends string | number | boolean
    ? `${V}` extends keyof KindsByText<Rule> ? KindsByText<Rule>[`${V}`] : Rule extends { otherwise: infer O } ? O : never
    : never;
// The rule's kinds keyed by each value as text (`true`, `1`), as a template literal writes the value.
type KindsByText<Rule extends KindRule> = { [Value in keyof Rule['kinds'] as `${Value & (string | number)}`]: Rule['kinds'][Value] };
type AllKinds<Rule extends KindRule> = Rule['kinds'][keyof Rule['kinds']] | (Rule extends { otherwise: infer O } ? O : never);

type JsonAnswer<O> = Exclude<Answer<O>, string>;

// The JSON answers the kind rule and the presence rule leave.
type JsonSelected<O, Rule, R> =
  | (Rule extends { kind: infer K extends KindRule }
    ? Extract<JsonAnswer<O>, { kind: KindsOf<FieldValue<R, K['field'], K['default']>, K> }>
    : JsonAnswer<O>)
  | (Rule extends { present: { field: infer F; kinds: readonly (infer K)[] } }
    ? F extends KeysOfUnion<R> ? Extract<JsonAnswer<O>, { kind: K }> : never
    : never);

// The JSON answers that can say there is nothing to draw (`found` may be false).
type NothingToDraw<J> = J extends { found: infer Found } ? (false extends Found ? J : never) : never;

// A drawing rule applied: the drawing value gives a string or a JSON answer with nothing to draw,
// every other value (or none) the JSON answer.
type Drawn<J, Rule, R> = Rule extends { drawing: { field: infer F extends string; value: infer Svg } }
  ? FieldValue<R, F, undefined> extends infer V
    ? (Svg extends V ? string | NothingToDraw<J> : never) | ([Exclude<V, Svg>] extends [never] ? never : J)
    : never
  : J;

/** The answer that request R (a query, a JSON body, or a text body) selects among the 200 answers of
 * operation `path`/`method`: exactly one variant where R's fields pick one, the union where a
 * field's type is a union, and the answer the service gives by default where they are absent. */
export type SelectedAnswer<P extends keyof paths, M extends 'get' | 'post', R> = P extends keyof Rules
  ? R extends string
    ? Rules[P] extends { text: true } ? string : never
    : Drawn<JsonSelected<Operation<P, M>, Rules[P], R>, Rules[P], R>
  : Answer<Operation<P, M>>;

/** The stream endpoints whose NDJSON line is made of the request's values: an `arrangement` of them
 * (a string for `text`, an array of the items for `items`), or a `shuffle` line, whose `items` are the
 * request's items (or the integers `n` gives) in random order. */
export const LINE_SELECTION = {
  '/permutations': 'arrangement',
  '/combinations': 'arrangement',
  '/shuffle': 'shuffle',
} as const satisfies Partial<Record<StreamPath, 'arrangement' | 'shuffle'>>;

type LineRules = typeof LINE_SELECTION;

// A value's type as a line holds it: a literal of the request widened to its primitive.
type Widened<V> = V extends string ? string : V extends number ? number : V extends boolean ? boolean : V;
// The type of the values request R gives (its items, or the integers of `n`); unknown when R does not say.
type ValuesOf<R> = R extends { items: readonly (infer V)[] } ? Widened<V> : R extends { n: number } ? number : unknown;

type LineOf<Rule, Line, R> = Rule extends 'arrangement'
  ? R extends { text: string } ? string : R extends { items: readonly unknown[] } ? ValuesOf<R>[] : Line
  : Rule extends 'shuffle'
    ? R extends { items: readonly unknown[] } | { n: number } ? { [K in keyof Line]: K extends 'items' ? ValuesOf<R>[] : Line[K] } : Line
    : Line;

/** One NDJSON line of `path`'s stream for request body R: typed by R's values where the line is made
 * of them (LINE_SELECTION), else the operation's line. */
export type SelectedLine<P extends StreamPath, R> = P extends keyof LineRules
  ? R extends unknown ? LineOf<LineRules[P], NdjsonLine<Operation<P, 'post'>>, R> : never
  : NdjsonLine<Operation<P, 'post'>>;
