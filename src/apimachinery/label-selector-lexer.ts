// Tokenizer for the Kubernetes label selector grammar. Like Kubernetes, it knows nothing of
// context: `in` and `notin` are always lexed as keywords and the parser reads them back as
// identifiers where a key or value is expected.

/** LabelTokenKind is the kind of one lexed token; 'end' closes every token list. */
export type LabelTokenKind =
  | 'identifier'
  | 'in'
  | 'notin'
  | '='
  | '=='
  | '!='
  | '!'
  | '('
  | ')'
  | ','
  | '<'
  | '>'
  | 'end';

/** LabelToken is one token with its 0-based position in the selector text. */
export interface LabelToken {
  readonly kind: LabelTokenKind;
  readonly text: string;
  readonly position: number;
}

// '<' and '>' are not supported operators here, but they are symbols in Kubernetes, so they end
// identifiers and get a precise "expected: operator" error instead of a confusing key error.
const SYMBOLS = '=!(),<>';
const WHITESPACE = ' \t\r\n';

/** lexLabelSelector splits selector text into tokens, ending with an 'end' token. */
export function lexLabelSelector(text: string): LabelToken[] {
  const tokens: LabelToken[] = [];
  let index = skipWhitespace(text, 0);
  while (index < text.length) {
    const token = SYMBOLS.includes(text.charAt(index)) ? symbolAt(text, index) : wordAt(text, index);
    tokens.push(token);
    index = skipWhitespace(text, index + token.text.length);
  }
  tokens.push({ kind: 'end', text: '', position: text.length });
  return tokens;
}

function skipWhitespace(text: string, from: number): number {
  let index = from;
  while (index < text.length && WHITESPACE.includes(text.charAt(index))) index++;
  return index;
}

function symbolAt(text: string, position: number): LabelToken {
  const pair = text.slice(position, position + 2);
  if (pair === '==' || pair === '!=') return { kind: pair, text: pair, position };
  const symbol = text.charAt(position) as LabelTokenKind;
  return { kind: symbol, text: symbol, position };
}

function wordAt(text: string, position: number): LabelToken {
  let end = position;
  while (end < text.length && !SYMBOLS.includes(text.charAt(end)) && !WHITESPACE.includes(text.charAt(end))) end++;
  const word = text.slice(position, end);
  const kind = word === 'in' || word === 'notin' ? word : 'identifier';
  return { kind, text: word, position };
}
