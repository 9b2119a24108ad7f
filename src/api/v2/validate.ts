import type { z } from 'zod';
import { badParam, unknownParams } from '../errors.ts';

/** Parses endpoint parameters; errors name the parameter (422), unknown parameters are listed. */
export function parseParams<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const obj = input ?? {};
  if (typeof obj !== 'object' || Array.isArray(obj)) throw badParam('params', 'params must contain an object');
  const r = schema.safeParse(obj);
  if (r.success) return r.data;
  const unknown = r.error.issues.find((i) => i.code === 'unrecognized_keys');
  if (unknown && 'keys' in unknown) throw unknownParams(unknown.keys as string[]);
  const issue = r.error.issues[0];
  const name = String(issue.path[0] ?? 'params');
  const given = (obj as Record<string, unknown>)[name];
  if (given === undefined && issue.path.length > 0 && issue.code === 'invalid_type') throw badParam(name, 'required parameter is missing');
  const sub = issue.path.length > 1 ? issue.path.slice(1).map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') : '';
  throw badParam(name + sub, issue.message);
}
