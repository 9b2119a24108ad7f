/** A table row as the store writes and reads it (ClickHouse and the key-value store): column name -> value. */
export type Row = Record<string, unknown>;
