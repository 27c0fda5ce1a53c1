// The deployment files stay true to the code: example configs pass the real config loader, and
// the Kubernetes manifests point probes, ports and the config path where the service has them.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig } from '../../../src/config/load-config.js';

const read = (path: string): string => readFileSync(new URL(`../../../deploy/${path}`, import.meta.url), 'utf8');
const configFrom = (text: string) => loadConfig({ argv: ['--config', 'c.yaml'], env: {}, readFile: () => text });

describe('deploy/', () => {
  const configMap = parse(read('kubernetes/configmap.yaml'));
  const deployment = parse(read('kubernetes/deployment.yaml'));
  const container = deployment.spec.template.spec.containers[0];

  it('case 1: the example config is valid', () => {
    expect(configFrom(read('config/cachegate.example.yaml')).port).toBe(8080);
  });

  it('case 2: the ConfigMap holds a valid config listening on all interfaces', () => {
    const config = configFrom(configMap.data['cachegate.yaml']);
    expect(config.host).toBe('0.0.0.0');
    expect(container.ports[0].containerPort).toBe(config.port);
    expect(config.sources[0]?.kubeconfig).toBe(`${container.volumeMounts[0].mountPath}/kubeconfig`);
    expect(parse(configMap.data.kubeconfig)['current-context']).toBe('local');
  });

  it('case 3: the Deployment probes /livez and /readyz and reads the mounted config', () => {
    expect(container.livenessProbe.httpGet.path).toBe('/livez');
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.args).toEqual(['--config', `${container.volumeMounts[0].mountPath}/cachegate.yaml`]);
    expect(deployment.spec.template.spec.serviceAccountName).toBe(parse(read('kubernetes/serviceaccount.yaml')).metadata.name);
  });

  it('case 5: the local backend\'s data directory is the mounted volume, and the etcd example keeps its state in the etcd it deploys', () => {
    const config = configFrom(configMap.data['cachegate.yaml']);
    expect(config.store.backend).toBe('local');
    const data = container.volumeMounts.find((m: { name: string }) => m.name === 'data');
    expect(data.mountPath).toBe(config.store.dataDir);
    const claim = deployment.spec.template.spec.volumes.find((v: { name: string }) => v.name === 'data').persistentVolumeClaim.claimName;
    expect(parse(read('kubernetes/pvc.yaml')).metadata.name).toBe(claim);
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.strategy.type).toBe('Recreate');

    const etcdConfig = configFrom(parse(read('kubernetes/etcd/configmap.yaml')).data['cachegate.yaml']);
    expect(etcdConfig.store.backend).toBe('etcd');
    const [service, statefulSet] = parseAllDocuments(read('kubernetes/etcd/etcd.yaml')).map((d) => d.toJSON());
    const members = Array.from({ length: statefulSet.spec.replicas }, (_, i) => `http://${statefulSet.metadata.name}-${i}.${service.metadata.name}.${service.metadata.namespace}.svc:2379`);
    expect(etcdConfig.store.etcd.endpoints).toEqual(members);
  });

  it('case 6: the etcd example runs three replicas on that config, spread over nodes, two kept through disruptions', () => {
    const [ha, budget] = parseAllDocuments(read('kubernetes/etcd/deployment.yaml')).map((d) => d.toJSON());
    const etcdConfig = configFrom(parse(read('kubernetes/etcd/configmap.yaml')).data['cachegate.yaml']);
    const haContainer = ha.spec.template.spec.containers[0];
    expect(ha.spec.replicas).toBe(3);
    expect(etcdConfig.ha.leaseSeconds).toBeGreaterThan(0);
    expect(haContainer.readinessProbe.httpGet.path).toBe('/readyz');
    expect(haContainer.ports[0].containerPort).toBe(etcdConfig.port);
    expect(haContainer.args).toEqual(container.args);
    expect(haContainer.volumeMounts.map((m: { name: string }) => m.name)).not.toContain('data');
    const spread = ha.spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm;
    expect(spread.topologyKey).toBe('kubernetes.io/hostname');
    expect(spread.labelSelector.matchLabels).toEqual(ha.spec.selector.matchLabels);
    expect(budget.kind).toBe('PodDisruptionBudget');
    expect(budget.spec.minAvailable).toBe(2);
    expect(budget.spec.selector.matchLabels).toEqual(ha.spec.selector.matchLabels);
  });

  it('case 4: RBAC lets the service account run the controllers', () => {
    const [role] = parseAllDocuments(read('kubernetes/rbac.yaml')).map((d) => d.toJSON());
    const allows = (group: string, resource: string, verb: string): boolean => role.rules.some((r: { apiGroups: string[]; resources: string[]; verbs: string[] }) =>
      (r.apiGroups.includes(group) || r.apiGroups.includes('*')) && (r.resources.includes(resource) || r.resources.includes('*')) && r.verbs.includes(verb));
    for (const verb of ['list', 'watch', 'patch']) expect(allows('cache.kcp.io', 'clustercachedresources', verb)).toBe(true);
    expect(allows('cache.kcp.io', 'clustercachedresources/status', 'patch')).toBe(true);
    expect(allows('', 'secrets', 'create')).toBe(true);
    expect(allows('', 'namespaces', 'create')).toBe(true);
  });
});
