// Kubernetes' IsConfigMapKey: the keys of ConfigMap data and binaryData and of Secret data become
// file names when mounted, so they are limited to a file-name-safe alphabet.

import { maxLenError, regexError } from './name-validation.js';

const CONFIG_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_KEY_RE = new RegExp(`^${CONFIG_KEY_FMT}$`);
const CONFIG_KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const CONFIG_KEY_MAX = 253;

/** isConfigMapKey lists what is wrong with a ConfigMap or Secret data key, in Kubernetes' words. */
export function isConfigMapKey(key: string): string[] {
  const errors: string[] = [];
  if (Buffer.byteLength(key) > CONFIG_KEY_MAX) errors.push(maxLenError(CONFIG_KEY_MAX));
  if (!CONFIG_KEY_RE.test(key)) errors.push(regexError(CONFIG_KEY_MSG, CONFIG_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  if (key === '.') errors.push("must not be '.'");
  else if (key === '..') errors.push("must not be '..'");
  else if (key.startsWith('..')) errors.push("must not start with '..'");
  return errors;
}
