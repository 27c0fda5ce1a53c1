// Safe property writes for objects built from untrusted JSON.

/** setOwn sets an own data property, even for the key `__proto__` (which plain assignment would not). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** getOwn reads an own property only, so keys like `constructor` never reach Object.prototype. */
export function getOwn(source: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(source, key) ? source[key] : undefined;
}
