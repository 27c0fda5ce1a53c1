// A watch client that stops reading: the request goes out on a plain TCP socket, which is paused
// once the response head has arrived, so the server's buffer for it can only grow.

import { connect } from 'node:net';
import type { Socket } from 'node:net';

/** stalledWatch opens a watch (with extra request headers) and resolves with its paused socket once the head arrived. */
export function stalledWatch(base: string, path: string, headers: Readonly<Record<string, string>> = {}): Promise<Socket> {
  const { hostname, port } = new URL(base);
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n${extra}\r\n`));
    socket.once('error', reject);
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.pause();
      // From here on the server is expected to drop the connection: that is not a test failure.
      socket.off('error', reject);
      socket.on('error', () => undefined);
      if (!head.startsWith('HTTP/1.1 200')) reject(new Error(`watch refused: ${head.split('\r\n')[0]}`));
      else resolve(socket);
    };
    socket.on('data', onData);
  });
}
