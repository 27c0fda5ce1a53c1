import { it } from 'vitest';
import { startTestApp } from '../test/helpers/test-app.js';
it('probe', async () => {
  const app = await startTestApp({});
  const q = 'query Q($name: String!, $limit: Int) { object(group: "apiextensions.k8s.io", version: "v1", resource: "customresourcedefinitions", name: $name, cluster: "root") objects(group: "x", version: "v1", resource: "y", limit: $limit) { items } }';
  const send = async (variables: unknown) => {
    const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: q, variables }) });
    return `${res.status} ${(await res.text()).slice(0, 300)}`;
  };
  for (let i = 0; i < 3; i++) console.log('valid', await send({ name: 'nope', limit: 5 }));
  for (let i = 0; i < 2; i++) console.log('badtype', await send({ name: 5, limit: 'x' }));
  console.log('missing', await send({}));
  await app.stop();
});
