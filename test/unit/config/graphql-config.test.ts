// Config `graphql.websocket`: defaults (the GraphQL plugin's own, so the process and a bare plugin
// agree), overrides, and one clear error per bad field.

import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, loadConfig } from '../../../src/config/load-config.js';
import { DEFAULT_CONNECTION_LIMITS } from '../../../src/graphql/subscription-gate.js';

function load(file: string) {
  return loadConfig({ argv: ['--config', 'c.yaml'], env: {}, readFile: () => file });
}

describe('config graphql.websocket', () => {
  it('case 1: the defaults are the GraphQL plugin\'s', () => {
    expect(load('port: 1').graphql.websocket).toEqual(DEFAULT_CONNECTION_LIMITS);
    expect(DEFAULT_CONFIG.graphql.websocket).toEqual(DEFAULT_CONNECTION_LIMITS);
  });

  it('case 2: each field can be set; the others keep their defaults', () => {
    expect(load('graphql: {websocket: {messagesPerSecond: 5, initTimeoutMs: 2000}}').graphql.websocket).toEqual({
      ...DEFAULT_CONNECTION_LIMITS, messagesPerSecond: 5, initTimeoutMs: 2000,
    });
  });

  it.each([
    ['case 3: a frame limit below 1 KiB', 'graphql: {websocket: {maxMessageBytes: 10}}', 'graphql.websocket.maxMessageBytes'],
    ['case 4: a rate of 0', 'graphql: {websocket: {messagesPerSecond: 0}}', 'graphql.websocket.messagesPerSecond'],
    ['case 5: a burst that is not a number', 'graphql: {websocket: {messageBurst: lots}}', 'graphql.websocket.messageBurst'],
    ['case 6: an init timeout of 0', 'graphql: {websocket: {initTimeoutMs: 0}}', 'graphql.websocket.initTimeoutMs'],
    ['case 7: an unknown field', 'graphql: {websocket: {maxFrames: 1}}', 'graphql.websocket.maxFrames'],
  ])('%s is refused naming %s', (_name, file, field) => {
    expect(() => load(file)).toThrow(field);
  });
});
