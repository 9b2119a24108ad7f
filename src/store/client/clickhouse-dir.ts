import { packagePath } from '../../util/index.ts';

/**
 * The repository's `clickhouse/` folder: versioned migrations (`NNNN_name.sql`) and the engine's `rocksdb.xml`.
 * Ends in a separator: callers append file names.
 */
export const MIGRATIONS_DIR = packagePath('clickhouse/');
