/** The description's operations as rows: grouped by tag, filtered by what a person types. */
import type { HttpVerb, OpenApiDocument, OpenApiOperation } from '@engine-api/openapi-types';

export interface OperationRow {
  verb: HttpVerb;
  path: string;
  operation: OpenApiOperation;
}

export function operationRows(document: OpenApiDocument): OperationRow[] {
  return Object.entries(document.paths).flatMap(([path, verbs]) =>
    Object.entries(verbs).map(([verb, operation]) => ({ verb: verb as HttpVerb, path, operation: operation! })),
  );
}

/** Rows whose method, path, command name or summary hold every word of `query`, by tag in the document's order. */
export function groupedRows(
  document: OpenApiDocument,
  query: string,
): { tag: string; description: string; rows: OperationRow[] }[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (row: OperationRow) => {
    const text = `${row.verb} ${row.path} ${row.operation.operationId} ${row.operation.summary}`.toLowerCase();
    return words.every((word) => text.includes(word));
  };
  const rows = operationRows(document).filter(matches);
  return document.tags
    .map(({ name, description }) => ({
      tag: name,
      description,
      rows: rows.filter((row) => row.operation.tags[0] === name),
    }))
    .filter((group) => group.rows.length > 0);
}
