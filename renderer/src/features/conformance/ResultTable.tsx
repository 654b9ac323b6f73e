/**
 * The result: every case of the suite, grouped by the contract section it checks, one row each
 * with its outcome, what it checks, what came back and the traffic entries that prove it. Cases
 * still to come are listed too, so the table does not jump as a run settles them.
 */
import { DataTable } from '../../components/DataTable';
import type { SectionGroup } from './grouping';
import { Evidence } from './Evidence';
import { OutcomeBadge } from './OutcomeBadge';
import styles from './ResultTable.module.css';

export function ResultTable({ groups }: { groups: SectionGroup[] }) {
  return (
    <DataTable className={styles.results} aria-label="Results by contract section">
      <colgroup>
        <col className={styles.colOutcome} />
        <col className={styles.colCase} />
        <col />
        <col className={styles.colEvidence} />
      </colgroup>
      <thead>
        <tr>
          <th scope="col">Outcome</th>
          <th scope="col">Case</th>
          <th scope="col">What came back</th>
          <th scope="col">Evidence</th>
        </tr>
      </thead>
      {groups.map((group) => (
        <tbody key={group.rule} aria-label={group.rule}>
          <tr className={styles.section}>
            <th scope="rowgroup" colSpan={4}>
              {group.rule}{' '}
              <span className={styles.sectionCount}>
                {group.rows.length} case{group.rows.length === 1 ? '' : 's'}
              </span>
            </th>
          </tr>
          {group.rows.map(({ info, result, state }) => (
            <tr key={info.id} data-case-id={info.id} data-outcome={result?.outcome} data-state={state}>
              <td>
                <OutcomeBadge outcome={result?.outcome ?? null} state={state} />
              </td>
              <td>
                <div className={styles.caseTitle}>{info.title}</div>
                <code className={styles.caseId}>{info.id}</code>
              </td>
              <td className={styles.message}>{result ? result.message : state === 'running' ? 'running now…' : ''}</td>
              <td>{result && <Evidence caseId={info.id} trafficIds={result.trafficIds} />}</td>
            </tr>
          ))}
        </tbody>
      ))}
    </DataTable>
  );
}
