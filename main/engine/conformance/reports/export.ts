/** A finished run as a file to save: JSON (the run itself), JUnit XML for CI, or a self-contained HTML page. */
import type { ConformanceReportFile, ConformanceReportFormat, ConformanceRun } from '../../api/conformance-types.js';
import { reportJson } from '../../api/report-json.js';
import { runHtml } from './html.js';
import { runJUnit } from './junit.js';

/** What a JSON report says it is, so that a reader can tell it from other files. */
export const CONFORMANCE_REPORT_KIND = 'cloud-queue-console/conformance-run';

export function exportRun(run: ConformanceRun, format: ConformanceReportFormat): ConformanceReportFile {
  const fileName = `conformance-${run.id}`;
  switch (format) {
    case 'json':
      return {
        fileName: `${fileName}.json`,
        mediaType: 'application/json',
        content: reportJson({ kind: CONFORMANCE_REPORT_KIND, ...run }),
      };
    case 'junit':
      return { fileName: `${fileName}.xml`, mediaType: 'application/xml', content: runJUnit(run) };
    case 'html':
      return { fileName: `${fileName}.html`, mediaType: 'text/html', content: runHtml(run) };
  }
}
