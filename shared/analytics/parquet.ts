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
 * What a Parquet file half written keeps between two invocations (docs/analytics.md, "A day in links"): the writer's
 * byte offset, its row groups' metadata (the footer is made of them) and the bytes not yet sent as a part. The writer's
 * metadata holds bigints, dates and byte arrays: JSON tags them.
 */
export type ParquetState = string;

const TAGS = {
  $b: (text: string) => BigInt(text),
  $d: (ms: number) => new Date(ms),
  $u: (b64: string) => new Uint8Array(Buffer.from(b64, 'base64')),
};
function encodeState(value: unknown): ParquetState {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, json: unknown) {
    const raw = this[key];
    if (typeof raw === 'bigint') return { $b: raw.toString() };
    if (raw instanceof Date) return { $d: raw.getTime() };
    if (raw instanceof Uint8Array) return { $u: Buffer.from(raw).toString('base64') };
    return json;
  });
}
const decodeState = (text: ParquetState): unknown =>
  JSON.parse(text, (_, value: unknown) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const entries = Object.entries(value);
    const [tag, raw] = entries.length === 1 ? entries[0]! : [];
    const decode = (typeof tag === 'string' && Object.hasOwn(TAGS, tag) ? TAGS[tag as keyof typeof TAGS] : undefined) as
      ((raw: never) => unknown) | undefined;
    return decode ? decode(raw as never) : value;
  });

interface SavedWriter {
  offset: number;
  numRows: bigint;
  rowGroups: ParquetWriter['row_groups'];
  /** Each column chunk's offset index (a chunk of several pages has one, written before the footer), in chunk order. */
  offsetIndexes: (PageIndexes['offsetIndex'] | null)[];
  tail: Uint8Array;
}

type PageIndexes = ParquetWriter['pendingIndexes'][number];

/**
 * One Parquet file written a row group at a time through `part` (the file's bytes in order, each call at least
 * `partBytes` but the last), that can stop after any row group (`save`) and go on in another invocation from what it
 * saved: the bytes are those one run would have written.
 */
export function parquetFile(
  columns: readonly Column[],
  { part, limits = WRITE_LIMITS, saved }: { part: (bytes: Uint8Array) => Promise<void>; limits?: WriteLimits; saved?: ParquetState },
) {
  // The writer's offset counts every byte written (the row groups' file offsets); its buffer only what is not sent yet.
  const writer = new ByteWriter() as ByteWriter & { flush?: () => Promise<void> };
  const send = async () => {
    if (!writer.index) return;
    await part(writer.getBytes().slice());
    writer.index = 0;
  };
  writer.flush = async () => {
    if (writer.index >= limits.partBytes) await send();
  };
  const schema = schemaOf(columns);
  let parquet: ParquetWriter;
  if (saved === undefined) parquet = new ParquetWriter({ writer, schema });
  else {
    const state = decodeState(saved) as SavedWriter;
    // The constructor writes the file's header: to a writer thrown away, as the file has it already.
    parquet = new ParquetWriter({ writer: new ByteWriter(), schema });
    parquet.writer = writer;
    writer.appendBytes(state.tail);
    writer.offset = state.offset;
    parquet.num_rows = state.numRows;
    parquet.row_groups = state.rowGroups;
    parquet.pendingIndexes = state.rowGroups
      .flatMap((group) => group.columns)
      .map((chunk, i) => ({ chunk, ...(state.offsetIndexes[i] ? { offsetIndex: state.offsetIndexes[i] } : {}) }));
  }
  let buffered: Row[] = [];
  return {
    /** Adds a row; answers true when it ended a row group (written): the file may be saved there. */
    async add(row: Row): Promise<boolean> {
      buffered.push(row);
      if (buffered.length < limits.rowGroupRows) return false;
      await this.group();
      return true;
    },
    /** Writes the rows added since the last row group as one. */
    async group(): Promise<void> {
      if (!buffered.length) return;
      await parquet.write({ columnData: columnDataOf(columns, buffered), rowGroupSize: buffered.length });
      buffered = [];
    },
    /** The state to go on from, right after a row group (no row buffered). */
    save(): ParquetState {
      if (buffered.length) throw new Error('a Parquet file is saved only between row groups');
      const state: SavedWriter = {
        offset: writer.offset,
        numRows: parquet.num_rows,
        rowGroups: parquet.row_groups,
        offsetIndexes: parquet.pendingIndexes.map((indexes) => indexes.offsetIndex ?? null),
        tail: writer.getBytes().slice(),
      };
      return encodeState(state);
    },
    /** Writes the last row group and the footer, and sends the last part. Answers the rows and row groups written. */
    async finish(): Promise<{ rows: number; groups: number }> {
      await this.group();
      await parquet.finish();
      await send();
      return { rows: Number(parquet.num_rows), groups: parquet.row_groups.length };
    },
  };
}
export type ParquetFile = ReturnType<typeof parquetFile>;

/**
 * Writes the rows of `pages` as one Parquet file (snappy, the writer's default; typed from the dataset's columns, so an
 * empty day is a valid file too) through `part` (called in order, the last with the footer), a row group per
 * `rowGroupRows` rows, in one go. Answers how many rows, row groups and parts it wrote.
 */
// hyparquet-writer is pure JavaScript (about 1 MB with its reader), small enough for a Lambda bundle; DuckDB's native
// module (70 MB) is not.
export async function streamParquet({
  columns,
  pages,
  part,
  limits = WRITE_LIMITS,
}: {
  columns: readonly Column[];
  pages: AsyncIterable<Row[]>;
  part: (bytes: Uint8Array) => Promise<void>;
  limits?: WriteLimits;
}): Promise<{ rows: number; parts: number; groups: number }> {
  let parts = 0;
  const file = parquetFile(columns, { part: (bytes) => ((parts += 1), part(bytes)), limits });
  for await (const page of pages) for (const row of page) await file.add(row);
  return { ...(await file.finish()), parts };
}
