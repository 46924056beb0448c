/** Types of backup-format.mjs (the one backup format; see that file and docs/features/backup.md). */
export declare const SKIP_TABLE: RegExp;
export declare const PAGE_ROWS: number;
export declare const TABLES_SQL: string;
export declare function ident(name: string): string;
export declare function fkSql(name: string): string;
export declare function columnsSql(name: string): string;
export declare function countSql(name: string): string;
export declare function tableOrder(names: readonly string[], parentsOf: (name: string) => readonly string[] | undefined): string[];
export declare function storedColumns(xinfo: ReadonlyArray<{ name: string; hidden: number | string }>): string[];
/** A page row: __rowid, then c0, c1, … tagged values. */
export type PageRow = { __rowid: number } & Record<string, unknown>;
export declare function pageSql(table: string, cols: readonly string[], afterRowid: number | null, limit?: number): string;
export declare function textLiteral(text: string): string;
export declare function literal(v: unknown): string;
export declare function insertStatement(table: string, cols: readonly string[], row: Record<string, unknown>): string;
export declare function headerLines(createdAt: string, source: string): string[];
export declare function tableLine(name: string, count: number): string;
export declare function parseBackup(text: string): { tables: Array<{ name: string; count: number }>; statements: string[] };
export declare function restoreStatements(
  backupText: string,
  triggers: ReadonlyArray<{ name: string; sql: string }>,
  fills: readonly string[],
): { tables: Array<{ name: string; count: number }>; statements: string[] };
export declare function orphanDeleteSql(table: string): string;
export declare function droppedRows(tables: ReadonlyArray<{ name: string; count: number }>, counts: readonly number[]): Record<string, number>;
