/** Small helpers every floor may use: a size-bounded Map, the package's own files. */
export { BoundedMap } from './bounded-map.ts';
export { packagePath, packageRoot } from './package-root.ts';
