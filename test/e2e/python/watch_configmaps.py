#!/usr/bin/python3
"""Drives cachegate's kube-compatible API with the official Python client (python3-kubernetes).

Run with Debian's /usr/bin/python3, which has the `kubernetes` package.

Watch mode (default):
    watch_configmaps.py URL NAMESPACE --own NAME --expect NAME... --modify NAME --delete NAME
  creates the configmap --own with the client, then watches the namespace's configmaps with
  Watch().stream(list_namespaced_config_map, ..., timeout_seconds=N) (the client sends
  `watch=True`). Every event is printed as one JSON line {"type", "name"}. Once ADDED has been
  seen for --own and every --expect name (the caller creates those while this runs), it patches
  --modify and deletes --delete, and stops after it has seen MODIFIED and DELETED for them.
  Exits 1 if the stream ends first.

List mode:
    watch_configmaps.py URL NAMESPACE --page-size N
  lists the namespace's configmaps N at a time, following `_continue` until it is empty, and
  prints one JSON line per page {"page", "names", "continue", "remaining"}.
"""

import argparse
import json
import sys

import kubernetes


def api_for(url):
    configuration = kubernetes.client.Configuration()
    configuration.host = url
    return kubernetes.client.CoreV1Api(kubernetes.client.ApiClient(configuration))


def emit(record):
    print(json.dumps(record), flush=True)


def watch(v1, args):
    v1.create_namespaced_config_map(
        args.namespace,
        kubernetes.client.V1ConfigMap(metadata=kubernetes.client.V1ObjectMeta(name=args.own), data={"step": "created"}),
    )
    waiting_added = {args.own, *args.expect}
    waiting_changes = {("MODIFIED", args.modify), ("DELETED", args.delete)}
    changed = False
    w = kubernetes.watch.Watch()
    for event in w.stream(v1.list_namespaced_config_map, args.namespace, timeout_seconds=args.timeout):
        kind = event["type"]
        name = event["object"].metadata.name
        emit({"type": kind, "name": name})
        if kind == "ADDED":
            waiting_added.discard(name)
        if changed:
            waiting_changes.discard((kind, name))
            if not waiting_changes:
                w.stop()
        elif not waiting_added:
            changed = True
            v1.patch_namespaced_config_map(args.modify, args.namespace, {"data": {"step": "patched"}})
            v1.delete_namespaced_config_map(args.delete, args.namespace)
    if waiting_added or waiting_changes:
        print(f"stream ended while still waiting for ADDED {sorted(waiting_added)} and {sorted(waiting_changes)}", file=sys.stderr)
        return 1
    return 0


def list_pages(v1, args):
    token = None
    page = 0
    while True:
        kwargs = {"limit": args.page_size}
        if token:
            kwargs["_continue"] = token
        result = v1.list_namespaced_config_map(args.namespace, **kwargs)
        page += 1
        token = result.metadata._continue
        emit({
            "page": page,
            "names": [item.metadata.name for item in result.items],
            "continue": bool(token),
            "remaining": result.metadata.remaining_item_count,
        })
        if not token:
            return 0
        if page > 1000:
            print("more than 1000 pages: the continue token does not advance", file=sys.stderr)
            return 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("namespace")
    parser.add_argument("--own", default="py-own")
    parser.add_argument("--expect", nargs="*", default=[])
    parser.add_argument("--modify")
    parser.add_argument("--delete")
    # The watch's server-side end: a bound for a broken run, generous for a loaded machine.
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("--page-size", type=int)
    args = parser.parse_args()
    v1 = api_for(args.url)
    if args.page_size is not None:
        return list_pages(v1, args)
    if not args.modify or not args.delete:
        parser.error("watch mode needs --modify and --delete")
    return watch(v1, args)


if __name__ == "__main__":
    sys.exit(main())
