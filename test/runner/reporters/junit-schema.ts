import type { XmlElement } from './xml-check.js';

// The structural rules of the Jenkins JUnit schema (the junit-4 XSD that Jenkins' junit plugin and
// junit5's platform tests use), written out as data: which attributes each element may carry, which
// are required, and which children it may have, in what order. `file` and `line` on testcase are
// agentcheck's documented extension (pytest and GitLab read them); everything else must conform.
const RULES: Record<string, { attrs: string[]; required: string[]; children: string[] }> = {
  testsuites: { attrs: ['name', 'time', 'tests', 'failures', 'disabled', 'errors'], required: [], children: ['testsuite'] },
  testsuite: {
    attrs: ['name', 'tests', 'failures', 'errors', 'time', 'disabled', 'skipped', 'timestamp', 'hostname', 'id', 'package', 'file'],
    required: ['name', 'tests'],
    children: ['properties', 'testcase', 'system-out', 'system-err'],
  },
  testcase: {
    attrs: ['name', 'assertions', 'time', 'classname', 'status', 'file', 'line'],
    required: ['name'],
    children: ['skipped', 'error', 'failure', 'system-out', 'system-err'],
  },
  failure: { attrs: ['type', 'message'], required: [], children: [] },
  error: { attrs: ['type', 'message'], required: [], children: [] },
  skipped: { attrs: ['message'], required: [], children: [] },
  'system-out': { attrs: [], required: [], children: [] },
  'system-err': { attrs: [], required: [], children: [] },
};

/** Every way `root` breaks the schema's rules, as readable lines (empty when it conforms). */
export function junitSchemaProblems(root: XmlElement, path = root.name): string[] {
  const rule = RULES[root.name];
  if (!rule) return [`${path}: element <${root.name}> is not in the schema`];
  const problems: string[] = [];
  for (const attr of Object.keys(root.attrs)) if (!rule.attrs.includes(attr)) problems.push(`${path}: attribute "${attr}" is not allowed`);
  for (const attr of rule.required) if (!(attr in root.attrs)) problems.push(`${path}: required attribute "${attr}" is missing`);
  let last = -1;
  root.children.forEach((child, index) => {
    const order = rule.children.indexOf(child.name);
    if (order < 0) problems.push(`${path}: <${child.name}> may not appear in <${root.name}>`);
    else if (order < last) problems.push(`${path}: <${child.name}> comes after an element the schema orders after it`);
    else last = order;
    problems.push(...junitSchemaProblems(child, `${path}/${child.name}[${index}]`));
  });
  return problems;
}
