/**
 * A JSON Schema check for the keywords the protocol's schemas use (draft 2020-12 subset: type, const, enum,
 * properties, required, additionalProperties, items, min/maxItems, uniqueItems, minimum, maximum, pattern,
 * oneOf, local $ref). Not a general validator: the generated schema is its only input.
 * @module
 */

/**
 * The first place `value` breaks `schema`, as `path: what is wrong`, or null when it conforms.
 * @param {any} schema
 * @param {any} value
 * @param {string} path where `value` sits, for the message (`view`, `view.hand[0]`)
 * @param {any} [root] the schema `$ref`s resolve in (default: `schema`)
 * @returns {string | null}
 */
export function schemaError(schema, value, path, root = schema) {
  if (schema.$ref !== undefined) {
    const target = schema.$ref.replace(/^#\//, '').split('/').reduce((/** @type {any} */ node, /** @type {string} */ key) => node[key], root);
    const error = schemaError(target, value, path, root);
    if (error) return error;
  }
  if (schema.type !== undefined && !hasType(value, schema.type)) return `${path}: must be ${schema.type}`;
  if (schema.const !== undefined && !same(value, schema.const)) {
    return `${path}: must be ${JSON.stringify(schema.const)}`;
  }
  if (schema.enum !== undefined && !schema.enum.some((/** @type {any} */ v) => same(value, v))) {
    return `${path}: must be one of ${JSON.stringify(schema.enum)}`;
  }
  if (schema.oneOf !== undefined) {
    const matching = schema.oneOf.filter((/** @type {any} */ s) => schemaError(s, value, path, root) === null);
    if (matching.length !== 1) return `${path}: must be valid exactly by one definition (${matching.length} matches found)`;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return `${path}: must be bigger than or equal to ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `${path}: must be smaller than or equal to ${schema.maximum}`;
  }
  if (typeof value === 'string' && schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
    return `${path}: must match pattern ${schema.pattern}`;
  }
  if (Array.isArray(value)) return arrayError(schema, value, path, root);
  if (hasType(value, 'object')) return objectError(schema, value, path, root);
  return null;
}

/**
 * @param {any} schema
 * @param {any[]} value
 * @param {string} path
 * @param {any} root
 */
function arrayError(schema, value, path, root) {
  if (schema.minItems !== undefined && value.length < schema.minItems) return `${path}: must contain at least ${schema.minItems} items`;
  if (schema.maxItems !== undefined && value.length > schema.maxItems) return `${path}: must contain less than or equal to ${schema.maxItems} items`;
  if (schema.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) {
    return `${path}: must contain unique items`;
  }
  if (schema.items !== undefined) {
    for (let i = 0; i < value.length; i += 1) {
      const error = schemaError(schema.items, value[i], `${path}[${i}]`, root);
      if (error) return error;
    }
  }
  return null;
}

/**
 * @param {any} schema
 * @param {Record<string, any>} value
 * @param {string} path
 * @param {any} root
 */
function objectError(schema, value, path, root) {
  for (const key of schema.required ?? []) {
    if (!Object.hasOwn(value, key)) return `${path}: must contain ${JSON.stringify(schema.required)} properties`;
  }
  const properties = schema.properties ?? {};
  for (const [key, item] of Object.entries(value)) {
    if (Object.hasOwn(properties, key)) {
      const error = schemaError(properties[key], item, `${path}.${key}`, root);
      if (error) return error;
    } else if (schema.additionalProperties === false) {
      return `${path}: must not contain "${key}" (no additional properties)`;
    }
  }
  return null;
}

/**
 * @param {any} value
 * @param {string} type
 */
function hasType(value, type) {
  switch (type) {
    case 'integer': return Number.isInteger(value);
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'string': return typeof value === 'string';
    case 'boolean': return typeof value === 'boolean';
    case 'null': return value === null;
    case 'array': return Array.isArray(value);
    case 'object': return value !== null && typeof value === 'object' && !Array.isArray(value);
    default: throw new Error(`schema type ${type} is not supported`);
  }
}

/**
 * @param {any} a
 * @param {any} b
 */
function same(a, b) {
  return a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));
}
