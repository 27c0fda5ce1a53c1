import { describe, expect, it } from 'vitest';
import { TerminalError } from '../../../../src/controllers/runtime/terminal-error.js';

describe('TerminalError', () => {
  it('case 1: wraps an Error cause, leaving its message to the cause chain', () => {
    const cause = new Error('spec.replicas must be positive');
    const err = new TerminalError(cause);
    expect(err.cause).toBe(cause);
    expect(err.message).toBe('terminal error');
    expect(err.name).toBe('TerminalError');
  });

  it('case 2: accepts a non-error cause and an explicit message', () => {
    expect(new TerminalError('bad').message).toBe('terminal error: bad');
    expect(new TerminalError(42, 'explicit').message).toBe('explicit');
  });

  it('case 3: isTerminal follows the cause chain and survives a cycle', () => {
    const looped = new Error('a');
    const other = new Error('b', { cause: looped });
    (looped as { cause?: unknown }).cause = other;
    expect(TerminalError.isTerminal(new TerminalError('x'))).toBe(true);
    expect(TerminalError.isTerminal(new Error('wrap', { cause: new TerminalError('x') }))).toBe(true);
    expect(TerminalError.isTerminal(new Error('plain'))).toBe(false);
    expect(TerminalError.isTerminal('string')).toBe(false);
    expect(TerminalError.isTerminal(looped)).toBe(false);
  });
});
