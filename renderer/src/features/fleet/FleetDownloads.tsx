/** An ended fleet's report saved as a file: JSON, JUnit XML (a test case per threshold) or HTML with its charts. */
import type { FleetReportFile, FleetReportFormat } from '@engine-api/fleet-types';
import { useExportFleet } from './queries';
import styles from './FleetDownloads.module.css';

export const FLEET_REPORT_FORMATS_SHOWN: readonly FleetReportFormat[] = ['json', 'junit', 'html'];

const LABEL: Record<FleetReportFormat, { text: string; title: string }> = {
  json: { text: 'JSON', title: 'The report as the admin API answers it' },
  junit: { text: 'JUnit XML', title: 'One test case per threshold, for a CI test report' },
  html: { text: 'HTML', title: 'One self-contained page with the charts' },
};

/** A link to a Blob, clicked, as the other areas save their exports. */
function save({ fileName, contentType, content }: FleetReportFile): void {
  const url = URL.createObjectURL(new Blob([content], { type: contentType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function FleetDownloads({ id, formats }: { id: string; formats: readonly FleetReportFormat[] }) {
  const exporter = useExportFleet();
  return (
    <div className={styles.downloads} role="group" aria-label="Download the report">
      <span className="muted">Download</span>
      {formats.map((format) => (
        <button
          key={format}
          type="button"
          title={LABEL[format].title}
          disabled={exporter.isPending}
          onClick={() => exporter.mutate({ id, format }, { onSuccess: save })}
        >
          {LABEL[format].text}
        </button>
      ))}
      {exporter.error && (
        <span role="alert" className="error">
          {exporter.error.message}
        </span>
      )}
    </div>
  );
}
