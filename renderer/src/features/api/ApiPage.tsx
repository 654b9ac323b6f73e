/**
 * The admin API as the engine describes it (OpenAPI 3.1, generated from the command table): every
 * call a script or CI job can make, grouped by area, with its path, query and body fields. The
 * same document is served at `GET /admin/api/openapi.json`; here it can be copied whole.
 */
import { useMemo, useState } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { DataTable } from '../../components/DataTable';
import { useApiDescription } from '../../queries/api-description';
import { useEngineState } from '../../queries/engine-state';
import { groupedRows, type OperationRow } from './operations';
import styles from './ApiPage.module.css';

export function ApiPage() {
  const description = useApiDescription();
  const state = useEngineState();
  const [query, setQuery] = useState('');
  const groups = useMemo(
    () => (description.data ? groupedRows(description.data, query) : []),
    [description.data, query],
  );
  const base = state.data ? `${state.data.urls.console}/admin/api` : '/admin/api';
  const count = groups.reduce((sum, group) => sum + group.rows.length, 0);

  return (
    <section className={styles.page} aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Admin API</h1>
        <p className={styles.lead}>
          Everything the console does, for scripts and CI: <code>Authorization: Bearer &lt;adminToken&gt;</code> from
          the ready line, JSON in and out. The description below is OpenAPI 3.1, generated from the engine’s command
          table.
        </p>
        <div className={styles.toolbar}>
          <span className={styles.base}>
            <code>{base}</code>
            <CopyButton value={base} label="Copy the API's base URL" />
          </span>
          <span className={styles.base}>
            <code>GET /openapi.json</code>
            {description.data && (
              <CopyButton
                value={JSON.stringify(description.data, null, 2)}
                label="Copy the OpenAPI description as JSON"
              />
            )}
          </span>
          <input
            type="search"
            className={styles.filter}
            aria-label="Filter calls"
            placeholder="Filter: method, path, command or words"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => event.key === 'Escape' && (setQuery(''), event.currentTarget.blur())}
          />
          <span className={styles.count} role="status">
            {description.data ? `${count} ${count === 1 ? 'call' : 'calls'}` : ''}
          </span>
        </div>
      </header>
      {description.isPending && <p className={styles.note}>Reading the description…</p>}
      {description.isError && (
        <p className={`${styles.note} ${styles.error}`}>
          The engine did not describe its API: {description.error.message}
        </p>
      )}
      {description.data && groups.length === 0 && <p className={styles.note}>No call matches “{query}”.</p>}
      {groups.map((group) => (
        <section key={group.tag} className={styles.group} aria-labelledby={`api-tag-${group.tag}`}>
          <h2 id={`api-tag-${group.tag}`}>
            {group.tag} <span className={styles.tagDescription}>{group.description}</span>
          </h2>
          <ul className={styles.operations}>
            {group.rows.map((row) => (
              <li key={`${row.verb} ${row.path}`}>
                <Operation row={row} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}

function Operation({ row }: { row: OperationRow }) {
  const { operation } = row;
  const body = operation.requestBody?.content['application/json']?.schema;
  return (
    <details className={styles.operation}>
      <summary>
        <span className={styles.verb} data-verb={row.verb}>
          {row.verb.toUpperCase()}
        </span>
        <code className={styles.path}>{row.path}</code>
        <span className={styles.summary}>{operation.summary}</span>
        <code className={styles.command}>{operation.operationId}</code>
      </summary>
      <div className={styles.detail}>
        {operation.parameters && operation.parameters.length > 0 && (
          <DataTable className={styles.params}>
            <caption>Parameters</caption>
            <thead>
              <tr>
                <th scope="col">name</th>
                <th scope="col">in</th>
                <th scope="col">required</th>
                <th scope="col">schema</th>
              </tr>
            </thead>
            <tbody>
              {operation.parameters.map((parameter) => (
                <tr key={`${parameter.in} ${parameter.name}`}>
                  <td>
                    <code>{parameter.name}</code>
                  </td>
                  <td>{parameter.in}</td>
                  <td>{parameter.required ? 'yes' : 'no'}</td>
                  <td>
                    <code className={styles.schemaInline}>{JSON.stringify(parameter.schema)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
        {body !== undefined && (
          <>
            <h3>JSON body{operation.requestBody?.required ? '' : ' (optional)'}</h3>
            <pre className={styles.schema}>{JSON.stringify(body, null, 2)}</pre>
          </>
        )}
        {!operation.parameters?.length && body === undefined && <p className={styles.note}>Takes no input.</p>}
      </div>
    </details>
  );
}
