// Kubernetes name, label and annotation validation. Messages are worded exactly like
// k8s.io/apimachinery's so that users (and tools that grep kubectl output) see familiar text.
// Lengths are counted in UTF-8 bytes, as Go's len() does.

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;

// None of these carries the g or y flag, so they hold no lastIndex state between calls.
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);

const DNS1123_LABEL_MAX = 63;
const DNS1123_SUBDOMAIN_MAX = 253;
const QUALIFIED_NAME_MAX = 63;
const LABEL_VALUE_MAX = 63;

const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** utf8Length counts the UTF-8 bytes of a string without allocating. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      bytes += 4; // a surrogate pair is one 4-byte code point
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** maxLenError is the Kubernetes wording for a length limit. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** regexError is the Kubernetes wording for a failed pattern, with examples. */
export function regexError(message: string, format: string, ...examples: string[]): string {
  // Kubernetes joins examples with ' or ' after a trailing ', ', hence the double space.
  const shown = examples.map((example) => `'${example}', `).join(' or ');
  return `${message} (e.g. ${shown}regex used for validation is '${format}')`;
}

/** isDNS1123Subdomain validates a lowercase RFC 1123 subdomain of at most 253 bytes. */
export function isDNS1123Subdomain(value: string): string[] {
  const errors: string[] = [];
  if (utf8Length(value) > DNS1123_SUBDOMAIN_MAX) errors.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) {
    errors.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  }
  return errors;
}

/** isDNS1123Label validates a lowercase RFC 1123 label of at most 63 bytes. */
export function isDNS1123Label(value: string): string[] {
  const errors: string[] = [];
  if (utf8Length(value) > DNS1123_LABEL_MAX) errors.push(maxLenError(DNS1123_LABEL_MAX));
  if (!DNS1123_LABEL_RE.test(value)) {
    // A valid subdomain that is not a valid label can only be failing because of its dots.
    if (DNS1123_SUBDOMAIN_RE.test(value)) errors.push('must not contain dots');
    else errors.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  }
  return errors;
}

/** isValidPathSegmentName validates a name used as one URL path segment. */
export function isValidPathSegmentName(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  return isValidPathSegmentPrefix(value);
}

/** isValidPathSegmentPrefix validates a generateName prefix used in a URL path segment. */
export function isValidPathSegmentPrefix(value: string): string[] {
  const errors: string[] = [];
  if (value.includes('/')) errors.push("may not contain '/'");
  if (value.includes('%')) errors.push("may not contain '%'");
  return errors;
}

/** isQualifiedName validates a label or annotation key: optional DNS subdomain prefix, '/', name. */
export function isQualifiedName(value: string): string[] {
  const parts = value.split('/');
  if (parts.length > 2) {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  const errors: string[] = [];
  const name = parts.length === 2 ? (parts[1] ?? '') : value;
  if (parts.length === 2) errors.push(...prefixErrors(parts[0] ?? ''));
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (utf8Length(name) > QUALIFIED_NAME_MAX) errors.push(`name part ${maxLenError(QUALIFIED_NAME_MAX)}`);
  if (!QUALIFIED_NAME_RE.test(name)) {
    errors.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errors;
}

function prefixErrors(prefix: string): string[] {
  if (prefix.length === 0) return ['prefix part must be non-empty'];
  return isDNS1123Subdomain(prefix).map((message) => `prefix part ${message}`);
}

/** isLabelValue tells whether isValidLabelValue would find nothing, without building messages. */
export function isLabelValue(value: string): boolean {
  return utf8Length(value) <= LABEL_VALUE_MAX && LABEL_VALUE_RE.test(value);
}

/** isValidLabelValue validates a label value: empty, or at most 63 bytes of the label pattern. */
export function isValidLabelValue(value: string): string[] {
  const errors: string[] = [];
  if (utf8Length(value) > LABEL_VALUE_MAX) errors.push(maxLenError(LABEL_VALUE_MAX));
  if (!LABEL_VALUE_RE.test(value)) {
    errors.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  }
  return errors;
}
