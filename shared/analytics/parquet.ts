import { ByteWriter, ParquetWriter, type parquetWriteBuffer } from 'hyparquet-writer';
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

const schemaOf = (columns: readonly Column[]): SchemaElement[] => [
  { name: 'root', num_children: columns.length },
  ...columns.flatMap((c) => ELEMENTS[c.type](c.name)),
];

const valueOf = (column: Column, value: Row[string] | undefined) =>
  value === undefined || value === null ? null : column.type === 'bigint' ? BigInt(value as number) : value;

const columnDataOf = (columns: readonly Column[], rows: readonly Row[]) =>
  columns.map((column) => ({ name: column.name, data: rows.map((row) => valueOf(column, row[column.name])) }));

/**
 * How a day is written without holding it (docs/analytics.md): its rows are encoded a row group at a time, and the
 * file's bytes handed on in parts of at least `partBytes` (S3's multipart upload takes parts of 5 MB or more, but the
 * last), so that what an invocation holds is one row group's rows and one part's bytes, whatever the day's size.
 */
export const WRITE_LIMITS = { rowGroupRows: 20_000, partBytes: 8 * 1024 * 1024 };
export type WriteLimits = typeof WRITE_LIMITS;

/**
 * Writes the rows of `pages` as one Parquet file (snappy, the writer's default; typed from the dataset's columns, so an
 * empty day is a valid file too) through `part` (called in order, the last with the footer), a row
 * group per `rowGroupRows` rows. Answers how many rows and parts it wrote.
 */
// hyparquet-writer is pure JavaScript (about 1 MB with its reader), small enough for a Lambda bundle; DuckDB's native
// module (70 MB) is not.
export async function streamParquet(
  columns: readonly Column[],
  pages: AsyncIterable<Row[]>,
  part: (bytes: Uint8Array) => Promise<void>,
  limits: WriteLimits = WRITE_LIMITS,
): Promise<{ rows: number; parts: number; groups: number }> {
  // The writer's offset counts every byte written (the row groups' file offsets); its buffer only what is not sent yet.
  const writer = new ByteWriter() as ByteWriter & { flush?: () => Promise<void> };
  let parts = 0;
  const send = async () => {
    if (!writer.index) return;
    await part(writer.getBytes().slice());
    writer.index = 0;
    parts++;
  };
  writer.flush = async () => {
    if (writer.index >= limits.partBytes) await send();
  };
  const parquet = new ParquetWriter({ writer, schema: schemaOf(columns) });
  let buffered: Row[] = [];
  let rows = 0;
  let groups = 0;
  const group = async () => {
    if (!buffered.length) return;
    await parquet.write({ columnData: columnDataOf(columns, buffered), rowGroupSize: buffered.length });
    rows += buffered.length;
    groups++;
    buffered = [];
  };
  for await (const page of pages)
    for (const row of page) {
      buffered.push(row);
      if (buffered.length >= limits.rowGroupRows) await group();
    }
  await group();
  await parquet.finish();
  await send();
  return { rows, parts, groups };
}
