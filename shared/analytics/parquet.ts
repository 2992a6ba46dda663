import { parquetWriteBuffer } from 'hyparquet-writer';
import type { Column, ColumnType } from './datasets.js';

/** A row of a dataset: each column's value, null when absent. */
export type Row = Record<string, string | number | Date | string[] | null>;

type SchemaElement = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>[number];

/** The Parquet schema elements of a column of each type: every column may be null; a list is the standard 3-level LIST. */
const ELEMENTS: Record<ColumnType, (name: string) => SchemaElement[]> = {
  int: (name) => [{ name, type: 'INT32', repetition_type: 'OPTIONAL' }],
  bigint: (name) => [{ name, type: 'INT64', repetition_type: 'OPTIONAL' }],
  string: (name) => [{ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }],
  timestamp: (name) => [{ name, type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', repetition_type: 'OPTIONAL' }],
  strings: (name) => [
    { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  ],
};

/**
 * A day's rows as one Parquet file (snappy, the writer's default), typed from the dataset's columns so that an empty
 * day is a valid file too. hyparquet-writer is pure JavaScript (about 1 MB with its reader), small enough for a Lambda
 * bundle; DuckDB's native module (70 MB) is not.
 */
export function parquetOf(columns: readonly Column[], rows: readonly Row[]): Uint8Array {
  const schema: SchemaElement[] = [{ name: 'root', num_children: columns.length }, ...columns.flatMap((c) => ELEMENTS[c.type](c.name))];
  const valueOf = (column: Column, value: Row[string] | undefined) =>
    value === undefined || value === null ? null : column.type === 'bigint' ? BigInt(value as number) : value;
  const columnData = columns.map((column) => ({ name: column.name, data: rows.map((row) => valueOf(column, row[column.name])) }));
  return new Uint8Array(parquetWriteBuffer({ columnData, schema }));
}
