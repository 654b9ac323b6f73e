/**
 * The scenario templates as one-click runs, at the top of the Faults area: each button sets up
 * what its template needs, runs it, and shows its report here (steps, what was put back, the
 * transitions it caused). One run at a time: a run takes the engine clock for itself.
 */
import type { ScenarioReport as Report } from '@engine-api/scenario-types';
import { ScenarioReport } from './ScenarioReport';
import { SCENARIO_TEMPLATES } from './templates';
import { useTemplateRun } from './useTemplateRun';
import styles from './TemplateRuns.module.css';

export function TemplateRuns() {
  const run = useTemplateRun();
  const running = run.isPending ? run.variables : null;
  const report: Report | undefined = run.isSuccess ? run.data : undefined;

  return (
    <>
      <div className={styles.templateRuns}>
        <h2 id="template-runs-title">Run a template</h2>
        {SCENARIO_TEMPLATES.map((template) => (
          <button
            key={template.id}
            type="button"
            aria-label={`Run template: ${template.label}`}
            title={template.description}
            disabled={run.isPending}
            aria-busy={running?.id === template.id || undefined}
            onClick={() => run.mutate(template)}
          >
            {running?.id === template.id ? 'Running…' : template.label}
          </button>
        ))}
      </div>
      {running && (
        <p role="status" className={`muted ${styles.templateRunReport}`}>
          Running “{running.label}”… the engine clock and the fault rules belong to it until it ends; then they are put
          back as they were.
        </p>
      )}
      {run.isError && (
        <p role="alert" className="error">
          {run.error.message}
        </p>
      )}
      {report && !running && (
        <section className={styles.templateRunReport} aria-label="Template run">
          <ScenarioReport report={report} />
        </section>
      )}
    </>
  );
}
