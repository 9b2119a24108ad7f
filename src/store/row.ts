/** One row: column name -> value (bigint, number, string, boolean, null, map/array). */
export type Row = Record<string, unknown>;
