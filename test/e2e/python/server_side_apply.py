#!/usr/bin/python3
"""Server-side apply with the official Python client's dynamic client (python3-kubernetes).

    server_side_apply.py URL NAMESPACE NAME MANAGER KEY=VALUE... [--force]

applies a ConfigMap NAME with the given data as MANAGER with DynamicClient.server_side_apply
(Content-Type application/apply-patch+yaml) and prints one JSON line {"data", "managers"}, or on
an API error {"error": HTTP status, "reason", "body": the Status}. The body is handed over as a
JSON string: this client's REST layer cannot serialise a dict for that content type itself.
"""

import argparse
import json

import kubernetes
from kubernetes.dynamic import DynamicClient
from kubernetes.dynamic.exceptions import DynamicApiError


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('url')
    parser.add_argument('namespace')
    parser.add_argument('name')
    parser.add_argument('manager')
    parser.add_argument('data', nargs='*')
    parser.add_argument('--force', action='store_true')
    args = parser.parse_args()

    configuration = kubernetes.client.Configuration()
    configuration.host = args.url
    client = DynamicClient(kubernetes.client.ApiClient(configuration))
    configmaps = client.resources.get(api_version='v1', kind='ConfigMap')
    body = {
        'apiVersion': 'v1', 'kind': 'ConfigMap',
        'metadata': {'name': args.name, 'namespace': args.namespace},
        'data': dict(item.split('=', 1) for item in args.data),
    }
    try:
        obj = client.server_side_apply(
            configmaps, body=json.dumps(body), name=args.name, namespace=args.namespace, field_manager=args.manager,
            force_conflicts=True if args.force else None,
        ).to_dict()
    except DynamicApiError as err:
        print(json.dumps({'error': err.status, 'reason': err.reason, 'body': json.loads(err.body)}), flush=True)
        return
    managers = sorted(entry['manager'] for entry in obj['metadata'].get('managedFields', []))
    print(json.dumps({'data': obj.get('data'), 'managers': managers}), flush=True)


if __name__ == '__main__':
    main()
