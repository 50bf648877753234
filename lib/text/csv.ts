// CSV for every download, one writer so no export forgets the escaping: cells are quoted where
// needed (commas, quotes, line breaks) and a text cell a spreadsheet would run as a formula
// (starting with = + - @, a tab, a carriage return or their full-width forms) gets a leading '.
// Numbers stay numbers: a negative delta is not a formula.
import { stringify } from "csv-stringify/sync";

export type CsvCell = string | number | bigint | boolean | null | undefined;

export const csvRows = (rows: readonly (readonly CsvCell[])[]): string => stringify(rows as CsvCell[][], { escape_formulas: true });
