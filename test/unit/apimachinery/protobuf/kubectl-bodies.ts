// Request bodies captured from a real kubectl (v1.32.4) pointed at a throwaway HTTP server that
// served just enough discovery (/version, /api, /api/v1, /apis) for kubectl to send the create.
// Each was sent with Content-Type application/vnd.kubernetes.protobuf; stored here as base64.
// They pin the decoder to what kubectl really writes, e.g. empty strings for every unset
// ObjectMeta field and an empty NamespaceStatus message.

/** KUBECTL_BODIES holds the captured bodies, keyed by the command that produced them. */
export const KUBECTL_BODIES = Object.freeze({
  /** kubectl create namespace team-a */
  createNamespace: 'azhzAAoPCgJ2MRIJTmFtZXNwYWNlEh4KFgoGdGVhbS1hEgAaACIAKgAyADgAQgASABoCCgAaACIA',
  /** kubectl create configmap cfg -n team-a --from-literal=a=b --from-literal=c=d */
  createConfigMap: 'azhzAAoPCgJ2MRIJQ29uZmlnTWFwEisKGQoDY2ZnEgAaBnRlYW0tYSIAKgAyADgAQgASBgoBYRIBYhIGCgFjEgFkGgAiAA==',
  /** kubectl create secret generic s1 -n team-a --from-literal=k=v */
  createSecret: 'azhzAAoMCgJ2MRIGU2VjcmV0EiQKGAoCczESABoGdGVhbS1hIgAqADIAOABCABIGCgFrEgF2GgAaACIA',
  /** kubectl create configmap bin -n team-a --from-file=blob=<bytes 00 01 02 ff> --from-literal=text=hi --save-config */
  createBinaryConfigMap:
    'azhzAAoPCgJ2MRIJQ29uZmlnTWFwEpMCCvYBCgNiaW4SABoGdGVhbS1hIgAqADIAOABCAGLaAQowa3ViZWN0bC5rdWJlcm5ldGVzLmlvL2xhc3QtYXBwbGllZC1jb25maWd1cmF0aW9uEqUBeyJraW5kIjoiQ29uZmlnTWFwIiwiYXBpVmVyc2lvbiI6InYxIiwibWV0YWRhdGEiOnsibmFtZSI6ImJpbiIsIm5hbWVzcGFjZSI6InRlYW0tYSIsImNyZWF0aW9uVGltZXN0YW1wIjpudWxsfSwiZGF0YSI6eyJ0ZXh0IjoiaGkifSwiYmluYXJ5RGF0YSI6eyJibG9iIjoiQUFFQy93PT0ifX0KEgoKBHRleHQSAmhpGgwKBGJsb2ISBAABAv8aACIA',
  /** kubectl create secret generic typed -n team-a --type=example.com/t --from-file=blob=<bytes 00 01 02 ff> --from-literal=k=v */
  createTypedSecret:
    'azhzAAoMCgJ2MRIGU2VjcmV0EkIKGwoFdHlwZWQSABoGdGVhbS1hIgAqADIAOABCABIMCgRibG9iEgQAAQL/EgYKAWsSAXYaDWV4YW1wbGUuY29tL3QaACIA',
});
